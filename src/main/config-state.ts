// The live configuration on the main thread: the loaded files, the compiled snapshot the
// workers run, config_version (0 at boot, +1 per API mutation of the config, process-local)
// and the retained versions. Every mutation is serialized: load and validate (in piscina) ->
// compile -> send to every worker -> wait for every acknowledgement -> record the version.
// Changes that must survive a restart (admin-auth, settings, the hook registry) are also
// written to the overlay, each as its own part: never the whole live document.
import type { CompiledConfig, SlotAssigner } from '../shared/config/compiled.js';
import type { Logger } from '../shared/log.js';
import type { LoadResult } from './config/load.js';
import { compileConfig } from './config/compile.js';
import { setEgressPolicy } from '../shared/egress/policy.js';
import { ConfigTaskPool } from './config/config-task-pool.js';
import type { ConfigDiff } from './config/config-tasks.js';
import { updateOverlay } from './config/overlay-writer.js';
import { hookOverlayOf } from './config/hook-overlay.js';
import { bootOnlyChanges } from './config/restart-settings.js';
import type { OverlayHooks } from '../shared/config/schema/overlay.js';
import { ConfigVersions, type ConfigVersionRecord } from './config/versions.js';
import type { WorkerPool } from './workers.js';

export interface ApplyOutcome {
  applied: boolean;
  version: number;
  errors: string[];
  /** The caller's expected_version was stale; nothing changed. */
  conflict?: boolean;
  /** Reload only: what the files say that this reload could not put in effect, one line each. */
  notApplied?: string[];
}

export interface MutationBy {
  principal: string;
  summary?: string;
  expectedVersion?: number;
  /** Applied because another node published it (not published again). */
  fromPeer?: boolean;
}

export class ConfigState {
  version = 0;
  compiled: CompiledConfig;
  readonly versions = new ConfigVersions();
  private readonly tasks = new ConfigTaskPool();
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Set on a shared store (store/config-share.ts): an API change of the live document (apply,
   * rollback, admin-auth, hooks) is published for the other nodes. Reload is not: it re-reads
   * this node's own files.
   */
  share: ((document: Record<string, unknown>) => Promise<void>) | null = null;
  /** Called once every worker runs a new config (boot wires the webhook hooks' configure here). */
  afterAdopt: (() => void) | null = null;

  /** The load the process booted with: settings read once at start compare against it. */
  private readonly bootLoaded: LoadResult;

  /** Called with the config before and after, once every worker runs the new one (boot: breaker cells follow new settings). */
  adopted: ((before: CompiledConfig, after: CompiledConfig) => void) | null = null;

  constructor(
    public loaded: LoadResult,
    private readonly slots: SlotAssigner,
    readonly safeMode: boolean,
    private readonly growShared: (bytes: number) => void,
    private readonly log: Logger,
  ) {
    this.bootLoaded = loaded;
    this.compiled = compileConfig(loaded, slots, 0, safeMode);
    setEgressPolicy(this.compiled.egress);
    growShared(this.compiled.sabBytes);
    this.record(0, 'boot', `boot (config from the ${loaded.configSource})`);
  }

  /** config.locked: admin config mutations are refused; edit the file and reload. */
  locked(): boolean {
    return this.loaded.config?.config?.locked === true;
  }

  /** Whether admin-API changes of the overlay kind survive a restart (an overlay is in use). */
  persistence(): boolean {
    return this.loaded.overlayPath !== null && !this.locked();
  }

  /** Validate a proposed deployment config without applying it (POST /config/validate). */
  async validateDocument(document: unknown): Promise<{ ok: boolean; errors: string[] }> {
    const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode, document);
    return { ok: loaded.ok, errors: loaded.errors };
  }

  /** Apply a full deployment config given as JSON (POST /config/apply): live, not written to disk. */
  applyDocument(workers: WorkerPool, document: unknown, by: MutationBy = { principal: 'admin' }): Promise<ApplyOutcome> {
    return this.exclusive(async () => {
      if (by.expectedVersion !== undefined && by.expectedVersion !== this.version) return this.conflict();
      const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode, document);
      const outcome = await this.adopt(workers, loaded, by.principal, by.summary ?? 'config apply');
      if (by.fromPeer !== true) await this.publish(outcome);
      return outcome;
    });
  }

  /**
   * Re-read the files and the overlay (POST /config/reload). The outcome names what it could not
   * put in effect: settings the overlay overrides, and settings read only at start that changed.
   */
  reload(workers: WorkerPool, principal = 'admin'): Promise<ApplyOutcome> {
    return this.exclusive(async () => {
      const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode);
      const outcome = await this.adopt(workers, loaded, principal, 'config reload from disk');
      if (!outcome.applied) return outcome;
      const notApplied = [...loaded.overridden, ...bootOnlyChanges(this.bootLoaded, loaded)];
      for (const line of notApplied) this.log.warn({ config_version: outcome.version }, `config reload: not applied: ${line}`);
      return { ...outcome, notApplied };
    });
  }

  /** Apply a retained version again as a NEW version; undefined when `version` is not retained. */
  rollback(workers: WorkerPool, version: number, principal: string): Promise<ApplyOutcome | undefined> {
    return this.exclusive(async () => {
      const record = this.versions.get(version);
      if (record === undefined) return undefined;
      const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode, record.document);
      const outcome = await this.adopt(workers, loaded, principal, `rollback to version ${version}`);
      await this.publish(outcome);
      return outcome;
    });
  }

  /** PUT /admin-auth: a new config version with this admin chain, persisted in the overlay. */
  setAdminAuth(workers: WorkerPool, modules: string[], principal: string): Promise<ApplyOutcome> {
    return this.exclusive(async () => {
      const document = { ...this.currentDocument() };
      document.auth = { ...(document.auth as object), admin_auth: modules };
      const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode, document);
      const outcome = await this.adopt(workers, loaded, principal, `admin-auth: [${modules.join(', ')}]`);
      if (outcome.applied) await this.writeOverlay((overlay) => (overlay.admin_auth = { modules }));
      await this.publish(outcome);
      return outcome;
    });
  }

  /**
   * A change of the hook registry made through the admin API: `change` edits a copy of the live
   * document (a new config version), and `persist` records the same change in the overlay's
   * `hooks` part when the config is not locked: the registry change alone, never the rest of
   * the live document (an applied config stays not written to disk). `change` throws to refuse
   * (nothing changes).
   */
  mutateHooks(
    workers: WorkerPool,
    change: (document: Record<string, unknown>) => void,
    persist: (hooks: OverlayHooks) => void,
    principal: string,
    summary: string,
  ): Promise<ApplyOutcome> {
    return this.exclusive(async () => {
      const document = structuredClone(this.currentDocument());
      change(document);
      const loaded = await this.tasks.load(this.loaded.configPath, this.safeMode, document);
      const outcome = await this.adopt(workers, loaded, principal, summary);
      if (outcome.applied && this.loaded.overlayPath !== null) {
        await this.writeOverlay((overlay) => {
          const hooks = hookOverlayOf(overlay.hooks);
          persist(hooks);
          overlay.hooks = hooks;
        });
      }
      await this.publish(outcome);
      return outcome;
    });
  }

  /** PUT /config/settings: stored in the overlay, in effect from the next start. */
  putSettings(settings: Record<string, unknown>): Promise<void> {
    return this.exclusive(() =>
      this.writeOverlay((overlay) => {
        const have = typeof overlay.settings === 'object' && overlay.settings !== null ? (overlay.settings as Record<string, unknown>) : {};
        overlay.settings = { ...have, ...settings };
      }),
    );
  }

  diff(from: ConfigVersionRecord, to: ConfigVersionRecord): Promise<ConfigDiff> {
    return this.tasks.diff(from.document, to.document);
  }

  /** The live deployment config (defaults filled in). */
  currentDocument(): Record<string, unknown> {
    return this.versions.get(this.version)?.document ?? (structuredClone(this.loaded.config) as unknown as Record<string, unknown>);
  }

  async close(): Promise<void> {
    await this.tasks.close();
  }

  private async writeOverlay(change: (overlay: Record<string, unknown>) => void): Promise<void> {
    if (this.loaded.overlayPath === null) throw new Error('the config is locked: there is no overlay to write');
    await updateOverlay(this.loaded.overlayPath, change);
  }

  /** Hands the live document to the other nodes; a store that cannot take it is logged (this node keeps it). */
  private async publish(outcome: ApplyOutcome): Promise<void> {
    if (!outcome.applied || this.share === null) return;
    await this.share(this.currentDocument()).catch((err: Error) => {
      this.log.warn(
        { err: err.message, config_version: outcome.version },
        'config applied here but not published to the other nodes (the store is unavailable)',
      );
    });
  }

  private conflict(): ApplyOutcome {
    return { applied: false, version: this.version, errors: [], conflict: true };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async adopt(workers: WorkerPool, loaded: LoadResult, principal: string, summary: string): Promise<ApplyOutcome> {
    if (!loaded.ok) return { applied: false, version: this.version, errors: loaded.errors };
    const version = this.version + 1;
    const compiled = compileConfig(loaded, this.slots, version, this.safeMode);
    this.growShared(compiled.sabBytes);
    await workers.apply(compiled);
    setEgressPolicy(compiled.egress);
    const before = this.compiled;
    this.version = version;
    this.loaded = loaded;
    this.compiled = compiled;
    this.adopted?.(before, compiled);
    this.record(version, principal, summary);
    for (const w of loaded.warnings) this.log.warn(w);
    this.log.info({ config_version: version, principal, summary }, 'config applied on every worker');
    this.afterAdopt?.();
    return { applied: true, version, errors: [] };
  }

  private record(version: number, principal: string, summary: string): void {
    const document = structuredClone(this.loaded.config) as unknown as Record<string, unknown>;
    this.versions.add({ version, ts: Math.floor(Date.now() / 1000), principal, summary, document });
  }
}
