// GET /usage's aggregation as SQL over usage_key_daily, shared by sqlite and postgres: one
// GROUP BY (model, provider) and one GROUP BY key_id that keeps the top N by spend (the
// database's sort with a LIMIT holds N rows, not every key). Each stored row is priced on its
// own by the one pricing rule (src/shared/governance/pricing.ts: one floor of the row's summed
// products over a million), exactly as the in-process path (summarize-rows.ts) does: the price list
// becomes a CASE over the model lanes it names, with the rates as integer literals (checked
// safe integers) and the lane names as bound parameters.
import type { RateEntry } from '../../shared/governance/pricing.js';
import { modelRates, type KeyUsageSummary, type KeyUsageTotals, type ModelUsageTotals, type UsageTotals } from '../usage/usage-summary.js';

export interface UsageSummarySql {
  byModel: string;
  topKeys: string;
  /** Bound before the day: the lane names of the CASE, in order. */
  params: string[];
  /** The same price list gives the same text (statements are cached by it). */
  signature: string;
}

function literal(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`price ${n} is not a whole number of micro-units`);
  return String(n);
}

function rowCost(rate: RateEntry | null, numeric: boolean): string {
  if (rate === null) return '0';
  const col = (name: string): string => (numeric ? `${name}::numeric` : name);
  const perMillion =
    `${col('tokens_input')} * ${literal(rate.input_micros_per_mtok)} + ${col('tokens_output')} * ${literal(rate.output_micros_per_mtok)} + ` +
    `${col('tokens_cache_read')} * ${literal(rate.cache_read_micros_per_mtok)} + ${col('tokens_cache_creation')} * ${literal(rate.cache_creation_micros_per_mtok)}`;
  // Truncating division of non-negative integers: the floor, pricing.ts's one rule per row.
  return numeric ? `div(${perMillion}, 1000000)` : `(${perMillion}) / 1000000`;
}

/**
 * `dialect` picks the placeholders and the arithmetic: sqlite's 64-bit integers (a row overflows
 * past 9.2e18 micro-units per million, far beyond a day), postgres' numeric (never overflows).
 */
export function usageSummarySql(prices: readonly RateEntry[], dialect: 'sqlite' | 'postgres'): UsageSummarySql {
  const pg = dialect === 'postgres';
  const rates = modelRates(prices);
  const params: string[] = [];
  const place = (): string => (pg ? `$${params.length}` : '?');
  let spend = 'CASE model';
  for (const [model, rate] of rates.named) {
    params.push(model);
    spend += ` WHEN ${place()} THEN ${rowCost(rate, pg)}`;
  }
  spend = rates.named.size === 0 ? rowCost(rates.other, pg) : `${spend} ELSE ${rowCost(rates.other, pg)} END`;
  const n = params.length;
  const dayParam = pg ? `$${n + 1}` : '?';
  const limitParam = pg ? `$${n + 2}` : '?';
  // Postgres answers SUM(bigint) and SUM(numeric) as numeric, that is text: the caller reads
  // every sum with Number() or BigInt(), which takes either.
  const sums = `SUM(tokens_input), SUM(tokens_output), SUM(tokens_cache_read), SUM(tokens_cache_creation), SUM(requests), SUM(${spend}) AS spend`;
  const byModel = `SELECT model, provider, ${sums} FROM usage_key_daily WHERE day = ${dayParam} GROUP BY model, provider`;
  const topKeys =
    `SELECT key_id, ${sums} FROM usage_key_daily WHERE day = ${dayParam} GROUP BY key_id ` +
    `ORDER BY spend DESC, key_id${pg ? ' COLLATE "C"' : ''} LIMIT ${limitParam}`;
  return { byModel, topKeys, params, signature: `${dialect}\u0000${JSON.stringify([...rates.named].concat([['*', rates.other]]))}` };
}

type Sum = number | bigint | string | null;

function totals(row: readonly unknown[], at: number): UsageTotals {
  const n = (v: unknown): number => Number((v as Sum) ?? 0);
  return {
    tokensInput: n(row[at]),
    tokensOutput: n(row[at + 1]),
    tokensCacheRead: n(row[at + 2]),
    tokensCacheCreation: n(row[at + 3]),
    requests: n(row[at + 4]),
    spendMicros: BigInt((row[at + 5] as Sum) ?? 0),
  };
}

/** A byModel row as an array: model, provider, then the sums. */
function modelTotalsOf(row: readonly unknown[]): ModelUsageTotals {
  return { ...totals(row, 2), model: String(row[0]), provider: String(row[1]) };
}

/** A topKeys row as an array: key_id, then the sums. */
function keyTotalsOf(row: readonly unknown[]): KeyUsageTotals {
  return { ...totals(row, 1), keyId: String(row[0]) };
}

/** The top query asks for one row more than it keeps: its presence says the list is cut. */
export function summaryOf(byModel: readonly (readonly unknown[])[], top: readonly (readonly unknown[])[], limit: number): KeyUsageSummary {
  return {
    byModel: byModel.map(modelTotalsOf),
    topKeys: top.slice(0, limit).map(keyTotalsOf),
    truncated: top.length > limit,
  };
}
