// One piscina thread for config work (config-tasks.ts). Started on first use and closed at
// shutdown; one thread is enough since config mutations are serialized anyway.
import { Piscina } from 'piscina';
import type { LoadResult } from './load.js';
import type { ConfigDiff, ConfigTask } from './config-tasks.js';

const TASKS = new URL('./config-tasks.js', import.meta.url).href;
const IDLE_TIMEOUT_MS = 60_000;

export class ConfigTaskPool {
  private pool: Piscina | null = null;

  private get piscina(): Piscina {
    this.pool ??= new Piscina({ filename: TASKS, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_TIMEOUT_MS });
    return this.pool;
  }

  load(configPath: string, safeMode: boolean, document?: unknown): Promise<LoadResult> {
    return this.piscina.run({ kind: 'load', configPath, safeMode, document } satisfies ConfigTask) as Promise<LoadResult>;
  }

  diff(from: unknown, to: unknown): Promise<ConfigDiff> {
    return this.piscina.run({ kind: 'diff', from, to } satisfies ConfigTask) as Promise<ConfigDiff>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}
