// GET /usage: one UTC-day bucket of per-key metering, priced at read time from the current
// global price table (governance.prices) in integer micro-units. by_model is never capped;
// by_key keeps the top 1000 keys by spend (ties by id) and folds the rest into `others`, so
// total = sum(by_key) + others, field by field.
import { findRate, tokenCostMicrosBig, type RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageRow } from '../store/records.js';

export const BY_KEY_MAX = 1000;
const DAY_SECS = 86_400;

interface Breakdown {
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_creation: number;
  requests: number;
  spend: bigint;
}

function zero(): Breakdown {
  return { tokens_input: 0, tokens_output: 0, tokens_cache_read: 0, tokens_cache_creation: 0, requests: 0, spend: 0n };
}

function addRow(into: Breakdown, row: KeyUsageRow, spend: bigint): void {
  into.tokens_input += row.tokensInput;
  into.tokens_output += row.tokensOutput;
  into.tokens_cache_read += row.tokensCacheRead;
  into.tokens_cache_creation += row.tokensCacheCreation;
  into.requests += row.requests;
  into.spend += spend;
}

function addBreakdown(into: Breakdown, from: Breakdown): void {
  into.tokens_input += from.tokens_input;
  into.tokens_output += from.tokens_output;
  into.tokens_cache_read += from.tokens_cache_read;
  into.tokens_cache_creation += from.tokens_cache_creation;
  into.requests += from.requests;
  into.spend += from.spend;
}

function out(b: Breakdown): Record<string, number> {
  return {
    tokens_input: b.tokens_input,
    tokens_output: b.tokens_output,
    tokens_cache_read: b.tokens_cache_read,
    tokens_cache_creation: b.tokens_cache_creation,
    requests: b.requests,
    spend_micros: Number(b.spend),
  };
}

/** The UTC-day bucket start for `?window=` (any second inside the day), default today. */
export function usageDay(windowParam: string | null, nowSec: number): number | null {
  if (windowParam === null || windowParam === '') return nowSec - (nowSec % DAY_SECS);
  if (!/^[0-9]{1,12}$/.test(windowParam)) return null;
  const at = Number(windowParam);
  return at - (at % DAY_SECS);
}

export function buildUsageView(
  day: number,
  rows: readonly KeyUsageRow[],
  prices: readonly RateEntry[],
  currency: string,
  keyName: (id: string) => string | null,
  nowSec: number,
): Record<string, unknown> {
  const total = zero();
  const byModel = new Map<string, Breakdown & { model: string; provider: string }>();
  const byKey = new Map<string, Breakdown & { id: string }>();
  const rates = new Map<string, RateEntry | null>();
  for (const row of rows) {
    let rate = rates.get(row.model);
    if (rate === undefined) rates.set(row.model, (rate = findRate(prices, row.model)));
    const spend = tokenCostMicrosBig(rate, row.tokensInput, row.tokensOutput, row.tokensCacheRead, row.tokensCacheCreation);
    addRow(total, row, spend);
    const mk = `${row.model}\u0000${row.provider}`;
    let m = byModel.get(mk);
    if (m === undefined) byModel.set(mk, (m = { ...zero(), model: row.model, provider: row.provider }));
    addRow(m, row, spend);
    let k = byKey.get(row.keyId);
    if (k === undefined) byKey.set(row.keyId, (k = { ...zero(), id: row.keyId }));
    addRow(k, row, spend);
  }
  const keys = [...byKey.values()].sort((a, b) => (a.spend > b.spend ? -1 : a.spend < b.spend ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const truncated = keys.length > BY_KEY_MAX;
  let others: Breakdown | null = null;
  if (truncated) {
    others = zero();
    for (let i = BY_KEY_MAX; i < keys.length; i++) addBreakdown(others, keys[i]!);
  }
  const models = [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.provider < b.provider ? -1 : 1));
  return {
    window: { start: day, end: day + DAY_SECS },
    as_of: nowSec,
    currency,
    total: out(total),
    by_model: models.map((m) => ({ ...out(m), model: m.model, provider: m.provider })),
    by_key: keys.slice(0, BY_KEY_MAX).map((k) => ({ ...out(k), id: k.id, name: keyName(k.id) })),
    by_key_truncated: truncated,
    others: others === null ? null : out(others),
  };
}
