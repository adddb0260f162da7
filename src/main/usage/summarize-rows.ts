// GET /usage's aggregation in process, for the stores that hand back rows (memory, valkey):
// per (model, provider) and per key in one pass, each stored row priced on its own (as the
// SQL stores do), then the top N by spend through a bounded heap. The pass runs in plain
// numbers while the day's whole spend stays below 2^53 micro-units (every product and partial
// sum is then exact); a day past that is summed again in BigInt.
import { costMicros, costMicrosBig, type RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageRow } from '../store/records.js';
import { TopKeys } from './top-keys.js';
import { addUsageCounts, type UsageCounts } from './usage-counts.js';
import { modelRates, rateOf, zeroTotals, type KeyUsageSummary, type KeyUsageTotals, type ModelUsageTotals, type UsageTotals } from './usage-summary.js';

interface NumberTotals extends UsageCounts {
  spend: number;
}

function add(into: NumberTotals, row: KeyUsageRow, spend: number): void {
  addUsageCounts(into, row);
  into.spend += spend;
}

function totals(n: NumberTotals): UsageTotals {
  return {
    tokensInput: n.tokensInput,
    tokensOutput: n.tokensOutput,
    tokensCacheRead: n.tokensCacheRead,
    tokensCacheCreation: n.tokensCacheCreation,
    requests: n.requests,
    spendMicros: BigInt(n.spend),
  };
}

/** The number pass; null when the day's spend (or a row's) does not fit below 2^53. */
function summarizeInNumbers(rows: readonly KeyUsageRow[], prices: readonly RateEntry[], limit: number): KeyUsageSummary | null {
  const rates = modelRates(prices);
  // By model, then provider: no string made per row.
  const byModel = new Map<string, Map<string, NumberTotals & { model: string; provider: string }>>();
  const byKey = new Map<string, NumberTotals & { keyId: string }>();
  let spendOfDay = 0;
  for (const row of rows) {
    // The one pricing rule (pricing.ts): exact for any row, one floor per row.
    const spend = costMicros(rateOf(rates, row.model), row.tokensInput, row.tokensOutput, row.tokensCacheRead, row.tokensCacheCreation);
    if (!Number.isSafeInteger(spend)) return null;
    spendOfDay += spend;
    let providers = byModel.get(row.model);
    if (providers === undefined) byModel.set(row.model, (providers = new Map()));
    let m = providers.get(row.provider);
    if (m === undefined)
      providers.set(
        row.provider,
        (m = { tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 0, spend: 0, model: row.model, provider: row.provider }),
      );
    add(m, row, spend);
    let k = byKey.get(row.keyId);
    if (k === undefined)
      byKey.set(row.keyId, (k = { tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 0, spend: 0, keyId: row.keyId }));
    add(k, row, spend);
  }
  // Every partial sum is at most the day's: below 2^53, all of them were exact.
  if (!Number.isSafeInteger(spendOfDay)) return null;
  const top = new TopKeys(limit);
  let floor = -1;
  for (const k of byKey.values()) {
    // Most keys of a big day spend less than the weakest kept one: no entry is built for them.
    if (k.spend < floor) {
      top.offered++;
      continue;
    }
    top.offer({ ...totals(k), keyId: k.keyId });
    const f = top.floor();
    if (f !== null) floor = Number(f);
  }
  return {
    byModel: [...byModel.values()].flatMap((providers) => [...providers.values()].map((m) => ({ ...totals(m), model: m.model, provider: m.provider }))),
    topKeys: top.sorted(),
    truncated: byKey.size > limit,
  };
}

function addBig(into: UsageTotals, row: KeyUsageRow, spend: bigint): void {
  addUsageCounts(into, row);
  into.spendMicros += spend;
}

function summarizeInBigInt(rows: readonly KeyUsageRow[], prices: readonly RateEntry[], limit: number): KeyUsageSummary {
  const rates = modelRates(prices);
  const byModel = new Map<string, ModelUsageTotals>();
  const byKey = new Map<string, KeyUsageTotals>();
  for (const row of rows) {
    const spend = costMicrosBig(rateOf(rates, row.model), row.tokensInput, row.tokensOutput, row.tokensCacheRead, row.tokensCacheCreation);
    const mk = `${row.model}\u0000${row.provider}`;
    let m = byModel.get(mk);
    if (m === undefined) byModel.set(mk, (m = { ...zeroTotals(), model: row.model, provider: row.provider }));
    addBig(m, row, spend);
    let k = byKey.get(row.keyId);
    if (k === undefined) byKey.set(row.keyId, (k = { ...zeroTotals(), keyId: row.keyId }));
    addBig(k, row, spend);
  }
  const top = new TopKeys(limit);
  for (const k of byKey.values()) top.offer(k);
  return { byModel: [...byModel.values()], topKeys: top.sorted(), truncated: byKey.size > limit };
}

export function summarizeKeyUsageRows(rows: Iterable<KeyUsageRow>, prices: readonly RateEntry[], limit: number): KeyUsageSummary {
  const all = Array.isArray(rows) ? (rows as KeyUsageRow[]) : [...rows];
  return summarizeInNumbers(all, prices, limit) ?? summarizeInBigInt(all, prices, limit);
}
