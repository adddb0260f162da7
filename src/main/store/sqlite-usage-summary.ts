// GET /usage's aggregation on a sqlite connection (usage-summary-sql.ts), with its prepared
// statements cached per price list. Used by the piscina task (a read-only connection of its own,
// so the main thread's event loop stays free) and in process for a `:memory:` database.
import type Database from 'better-sqlite3';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { summaryOf, usageSummarySql } from './usage-summary-sql.js';

interface Prepared {
  params: string[];
  byModel: Database.Statement;
  topKeys: Database.Statement;
}

const CACHED_PRICE_LISTS = 4;

export class SqliteUsageSummary {
  private readonly prepared = new Map<string, Prepared>();

  constructor(private readonly db: Database.Database) {}

  summarize(day: number, prices: readonly RateEntry[], limit: number): KeyUsageSummary {
    const p = this.statements(prices);
    // One read transaction for both queries: the total and the top keys see the same rows.
    return this.db.transaction(() => {
      const byModel = p.byModel.all(...p.params, day) as unknown[][];
      const top = p.topKeys.all(...p.params, day, limit + 1) as unknown[][];
      return summaryOf(byModel, top, limit);
    })();
  }

  private statements(prices: readonly RateEntry[]): Prepared {
    const sql = usageSummarySql(prices, 'sqlite');
    let p = this.prepared.get(sql.signature);
    if (p === undefined) {
      if (this.prepared.size >= CACHED_PRICE_LISTS) this.prepared.clear();
      // Raw rows and BigInt sums: spend can pass 2^53 over a big day.
      p = {
        params: sql.params,
        byModel: this.db.prepare(sql.byModel).raw(true).safeIntegers(true),
        topKeys: this.db.prepare(sql.topKeys).raw(true).safeIntegers(true),
      };
      this.prepared.set(sql.signature, p);
    }
    return p;
  }
}
