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
  /** The generation of the answer the caller holds for this day, prices and limit (decimal), or null. */
  known: string | null;
}

/** `summary` null: unchanged since `known`. */
export interface SqliteUsageTaskResult {
  generation: string;
  summary: KeyUsageSummary | null;
}

const open = new Map<string, SqliteUsageSummary>();

export default function run(task: SqliteUsageTask): SqliteUsageTaskResult {
  let summary = open.get(task.path);
  if (summary === undefined) {
    summary = new SqliteUsageSummary(new Database(task.path, { readonly: true, fileMustExist: true }));
    open.set(task.path, summary);
  }
  const read = summary.summarizeSince(task.day, task.prices, task.limit, task.known === null ? null : BigInt(task.known));
  return { generation: String(read.generation), summary: read.summary };
}
