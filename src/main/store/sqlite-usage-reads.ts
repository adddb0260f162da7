// Where a sqlite usage read runs: for a database file, in one piscina thread that opens the file
// read-only (the aggregation over 100k keys is tens of ms of CPU that would otherwise block the
// admin listener and every worker message); for `:memory:` (no file to open twice), in process.
import { Piscina } from 'piscina';
import type Database from 'better-sqlite3';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { SqliteUsageSummary } from './sqlite-usage-summary.js';
import type { SqliteUsageTask } from './sqlite-usage-task.js';

const TASK = new URL('./sqlite-usage-task.js', import.meta.url).href;
// The thread (and its connection) ends after a minute without reads.
const IDLE_TIMEOUT_MS = 60_000;

export class SqliteUsageReads {
  private pool: Piscina | null = null;
  private inProcess: SqliteUsageSummary | null = null;

  constructor(
    private readonly path: string,
    private readonly db: Database.Database,
  ) {}

  summarize(day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    if (this.db.memory) {
      this.inProcess ??= new SqliteUsageSummary(this.db);
      return Promise.resolve(this.inProcess.summarize(day, prices, limit));
    }
    this.pool ??= new Piscina({ filename: TASK, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_TIMEOUT_MS });
    return this.pool.run({ path: this.path, day, prices: [...prices], limit } satisfies SqliteUsageTask) as Promise<KeyUsageSummary>;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
