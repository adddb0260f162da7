// GET /usage's aggregation on a sqlite connection (usage-summary-sql.ts), with its prepared
// statements cached per price list. Used by the piscina task (a read-only connection of its own,
// so the main thread's event loop stays free) and in process for a `:memory:` database.
import type Database from 'better-sqlite3';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { summaryOf, usageSummarySql } from './usage-summary-sql.js';

interface Prepared {
  signature: string;
  params: string[];
  byModel: Database.Statement;
  topKeys: Database.Statement;
}

const CACHED_PRICE_LISTS = 4;

interface LastAnswer {
  generation: bigint;
  day: number;
  signature: string;
  limit: number;
  summary: KeyUsageSummary;
}

export class SqliteUsageSummary {
  private readonly prepared = new Map<string, Prepared>();
  private readonly generation: Database.Statement;
  private last: LastAnswer | null = null;

  constructor(private readonly db: Database.Database) {
    this.generation = db.prepare('SELECT n FROM usage_key_generation WHERE id = 1').pluck(true).safeIntegers(true);
  }

  /**
   * The day's summary; the same as the last answer while no per-key usage was flushed since
   * (by any connection: the generation is in the file), so a dashboard polling an unchanged day
   * costs one row read instead of two scans of every key.
   */
  summarize(day: number, prices: readonly RateEntry[], limit: number): KeyUsageSummary {
    return this.summarizeSince(day, prices, limit, null).summary!;
  }

  /**
   * As summarize, with the generation it read; `summary` is null when that generation is
   * `known` and the last answer was for the same day, prices and limit: the caller, who holds
   * that answer, keeps it (the piscina reply then carries no rows to clone).
   */
  summarizeSince(day: number, prices: readonly RateEntry[], limit: number, known: bigint | null): { generation: bigint; summary: KeyUsageSummary | null } {
    const p = this.statements(prices);
    // One read transaction: the generation, the total and the top keys see the same rows.
    return this.db.transaction(() => {
      const generation = (this.generation.get() as bigint | undefined) ?? -1n;
      const last = this.last;
      if (last !== null && last.generation === generation && last.day === day && last.signature === p.signature && last.limit === limit) {
        return { generation, summary: known === generation ? null : last.summary };
      }
      const byModel = p.byModel.all(...p.params, day) as unknown[][];
      const top = p.topKeys.all(...p.params, day, limit + 1) as unknown[][];
      const summary = summaryOf(byModel, top, limit);
      this.last = { generation, day, signature: p.signature, limit, summary };
      return { generation, summary };
    })();
  }

  private statements(prices: readonly RateEntry[]): Prepared {
    const sql = usageSummarySql(prices, 'sqlite');
    let p = this.prepared.get(sql.signature);
    if (p === undefined) {
      if (this.prepared.size >= CACHED_PRICE_LISTS) this.prepared.clear();
      // Raw rows and BigInt sums: spend can pass 2^53 over a big day.
      p = {
        signature: sql.signature,
        params: sql.params,
        byModel: this.db.prepare(sql.byModel).raw(true).safeIntegers(true),
        topKeys: this.db.prepare(sql.topKeys).raw(true).safeIntegers(true),
      };
      this.prepared.set(sql.signature, p);
    }
    return p;
  }
}
