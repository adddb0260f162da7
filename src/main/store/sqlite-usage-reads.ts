// Where a sqlite usage read runs: for a database file, in one piscina thread that opens the file
// read-only (the aggregation over 100k keys is tens of ms of CPU that would otherwise block the
// admin listener and every worker message); for `:memory:` (no file to open twice), in process.
import { Piscina } from 'piscina';
import type Database from 'better-sqlite3';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { SqliteUsageSummary } from './sqlite-usage-summary.js';
import type { SqliteUsageTask, SqliteUsageTaskResult } from './sqlite-usage-task.js';

const TASK = new URL('./sqlite-usage-task.js', import.meta.url).href;
// The thread (and its connection) ends after a minute without reads.
const IDLE_TIMEOUT_MS = 60_000;

/** The last answer the thread gave, kept here so that an unchanged day comes back as no rows. */
interface HeldAnswer {
  day: number;
  prices: string;
  limit: number;
  generation: string;
  summary: KeyUsageSummary;
}

export class SqliteUsageReads {
  private pool: Piscina | null = null;
  private inProcess: SqliteUsageSummary | null = null;
  private held: HeldAnswer | null = null;

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
    return this.fromThread(this.pool, day, prices, limit);
  }

  /** While the day's per-key usage did not change, the same summary object comes back (and
   * GET /usage reuses the view it built from it: usage-view-cache.ts). */
  private async fromThread(pool: Piscina, day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    const pricesKey = JSON.stringify(prices);
    const held = this.held;
    const same = held !== null && held.day === day && held.prices === pricesKey && held.limit === limit;
    const task: SqliteUsageTask = { path: this.path, day, prices: [...prices], limit, known: same ? held.generation : null };
    const result = (await pool.run(task)) as SqliteUsageTaskResult;
    if (result.summary === null && same) return held.summary;
    // A null summary answers `known`, so it comes only with `same`; a thread that restarted meanwhile answers rows.
    const summary = result.summary!;
    this.held = { day, prices: pricesKey, limit, generation: result.generation, summary };
    return summary;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
