// The live configuration on the main thread: the loaded files, the compiled snapshot the
// workers run, and config_version (0 at boot, +1 per API apply, process-local). An apply is
// load -> validate -> compile -> send to every worker -> wait for every acknowledgement.
import type { CompiledConfig, SlotAssigner } from '../shared/config/compiled.js';
import type { Logger } from '../shared/log.js';
import { loadConfig, type LoadResult } from './config/load.js';
import { compileConfig } from './config/compile.js';
import type { WorkerPool } from './workers.js';

export interface ApplyOutcome {
  applied: boolean;
  version: number;
  errors: string[];
}

export class ConfigState {
  version = 0;
  compiled: CompiledConfig;

  constructor(
    public loaded: LoadResult,
    private readonly slots: SlotAssigner,
    readonly safeMode: boolean,
    private readonly growShared: (bytes: number) => void,
    private readonly log: Logger,
  ) {
    this.compiled = compileConfig(loaded, slots, 0, safeMode);
    growShared(this.compiled.sabBytes);
  }

  /** config.locked: admin config mutations are refused; edit the file and reload. */
  locked(): boolean {
    return this.loaded.config?.config?.locked === true;
  }

  /** Apply a full deployment config given as JSON (POST /config/apply). */
  async applyDocument(workers: WorkerPool, document: unknown): Promise<ApplyOutcome> {
    const loaded = await loadConfig({ configPath: this.loaded.configPath, safeMode: this.safeMode, purpose: 'boot', document });
    return this.adopt(workers, loaded);
  }

  /** Re-read the files (POST /config/reload). */
  async reload(workers: WorkerPool): Promise<ApplyOutcome> {
    const loaded = await loadConfig({ configPath: this.loaded.configPath, safeMode: this.safeMode, purpose: 'boot' });
    return this.adopt(workers, loaded);
  }

  private async adopt(workers: WorkerPool, loaded: LoadResult): Promise<ApplyOutcome> {
    if (!loaded.ok) return { applied: false, version: this.version, errors: loaded.errors };
    const version = this.version + 1;
    const compiled = compileConfig(loaded, this.slots, version, this.safeMode);
    this.growShared(compiled.sabBytes);
    await workers.apply(compiled);
    this.version = version;
    this.loaded = loaded;
    this.compiled = compiled;
    for (const w of loaded.warnings) this.log.warn(w);
    this.log.info({ config_version: version }, 'config applied on every worker');
    return { applied: true, version, errors: [] };
  }
}
