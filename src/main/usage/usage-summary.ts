// What GET /usage needs from the store for one UTC day, already aggregated and priced: a
// breakdown per (model, provider) (uncapped: a fleet has few of those), the top `limit` keys by
// spend (ties by id), and whether more keys than that metered. The store aggregates where its
// data is (SQL GROUP BY in sqlite and postgres; in process for memory and valkey), so a read
// over 100k keys moves about a thousand rows, never one object per key.
import { findRate, type RateEntry } from '../../shared/governance/pricing.js';

/** Token sums and spend (micro-units, BigInt: a day of a big fleet can pass 2^53). */
export interface UsageTotals {
  tokensInput: number;
  tokensOutput: number;
  tokensCacheRead: number;
  tokensCacheCreation: number;
  requests: number;
  spendMicros: bigint;
}

export interface ModelUsageTotals extends UsageTotals {
  model: string;
  provider: string;
}

export interface KeyUsageTotals extends UsageTotals {
  keyId: string;
}

export interface KeyUsageSummary {
  /** Every (model, provider) of the day, in no particular order; their sum is the day's total. */
  byModel: ModelUsageTotals[];
  /** At most `limit` keys, by spend descending then id ascending. */
  topKeys: KeyUsageTotals[];
  /** More keys metered that day than `limit`. */
  truncated: boolean;
}

/**
 * The rate each model lane is billed at (tier `default`, as every request is), resolved once
 * from the price list: lanes named in it get their own entry, every other lane `other`.
 */
export interface ModelRates {
  named: Map<string, RateEntry | null>;
  other: RateEntry | null;
}

const UNNAMED_MODEL = '\u0000';

export function modelRates(prices: readonly RateEntry[]): ModelRates {
  const named = new Map<string, RateEntry | null>();
  for (const entry of prices) if (entry.model !== '*' && !named.has(entry.model)) named.set(entry.model, findRate(prices, entry.model));
  return { named, other: findRate(prices, UNNAMED_MODEL) };
}

export function rateOf(rates: ModelRates, model: string): RateEntry | null {
  const named = rates.named.get(model);
  return named === undefined ? rates.other : named;
}

/** Spend order: more spend first, then the smaller id (the page order GET /usage promises). */
export function spendsBefore(a: KeyUsageTotals, b: KeyUsageTotals): boolean {
  return a.spendMicros > b.spendMicros || (a.spendMicros === b.spendMicros && a.keyId < b.keyId);
}

export function zeroTotals(): UsageTotals {
  return { tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 0, spendMicros: 0n };
}
