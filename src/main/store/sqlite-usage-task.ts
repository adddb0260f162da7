// The piscina side of a sqlite usage read: the database file opened read-only by path (WAL lets
// it read while the main thread's connection writes), kept open between reads.
import Database from 'better-sqlite3';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { SqliteUsageSummary } from './sqlite-usage-summary.js';

export interface SqliteUsageTask {
  path: string;
  day: number;
  prices: RateEntry[];
  limit: number;
}

const open = new Map<string, SqliteUsageSummary>();

export default function run(task: SqliteUsageTask): KeyUsageSummary {
  let summary = open.get(task.path);
  if (summary === undefined) {
    summary = new SqliteUsageSummary(new Database(task.path, { readonly: true, fileMustExist: true }));
    open.set(task.path, summary);
  }
  return summary.summarize(task.day, task.prices, task.limit);
}
