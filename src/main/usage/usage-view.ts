// GET /usage: one UTC-day bucket of per-key metering, priced at read time from the current
// global price table (governance.prices) in integer micro-units. by_model is never capped;
// by_key keeps the top 1000 keys by spend (ties by id) and folds the rest into `others`, so
// total = sum(by_key) + others, field by field. The store aggregates (Store.keyUsageSummary);
// this file only shapes its answer.
import { zeroTotals, type KeyUsageSummary, type UsageTotals } from './usage-summary.js';

export const BY_KEY_MAX = 1000;
const DAY_SECS = 86_400;

function out(b: UsageTotals): Record<string, number> {
  return {
    tokens_input: b.tokensInput,
    tokens_output: b.tokensOutput,
    tokens_cache_read: b.tokensCacheRead,
    tokens_cache_creation: b.tokensCacheCreation,
    requests: b.requests,
    spend_micros: Number(b.spendMicros),
  };
}

function add(into: UsageTotals, from: UsageTotals, sign: 1 | -1): void {
  into.tokensInput += sign * from.tokensInput;
  into.tokensOutput += sign * from.tokensOutput;
  into.tokensCacheRead += sign * from.tokensCacheRead;
  into.tokensCacheCreation += sign * from.tokensCacheCreation;
  into.requests += sign * from.requests;
  into.spendMicros += sign === 1 ? from.spendMicros : -from.spendMicros;
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
  summary: KeyUsageSummary,
  currency: string,
  keyName: (id: string) => string | null,
  nowSec: number,
): Record<string, unknown> {
  // Every row of the day is in exactly one (model, provider): their sum is the total.
  const total = zeroTotals();
  for (const m of summary.byModel) add(total, m, 1);
  let others: UsageTotals | null = null;
  if (summary.truncated) {
    others = zeroTotals();
    add(others, total, 1);
    for (const k of summary.topKeys) add(others, k, -1);
  }
  const models = [...summary.byModel].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.provider < b.provider ? -1 : 1));
  return {
    window: { start: day, end: day + DAY_SECS },
    as_of: nowSec,
    currency,
    total: out(total),
    by_model: models.map((m) => ({ ...out(m), model: m.model, provider: m.provider })),
    by_key: summary.topKeys.map((k) => ({ ...out(k), id: k.keyId, name: keyName(k.keyId) })),
    by_key_truncated: summary.truncated,
    others: others === null ? null : out(others),
  };
}
