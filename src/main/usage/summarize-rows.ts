// GET /usage's aggregation in process, for the stores that hand back rows (memory, valkey):
// per (model, provider) and per key in one pass, each stored row priced on its own (as the
// SQL stores do), then the top N by spend through a bounded heap.
import { tokenCostMicrosBig, type RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageRow } from '../store/records.js';
import { TopKeys } from './top-keys.js';
import { modelRates, rateOf, zeroTotals, type KeyUsageSummary, type KeyUsageTotals, type ModelUsageTotals, type UsageTotals } from './usage-summary.js';

function add(into: UsageTotals, row: KeyUsageRow, spend: bigint): void {
  into.tokensInput += row.tokensInput;
  into.tokensOutput += row.tokensOutput;
  into.tokensCacheRead += row.tokensCacheRead;
  into.tokensCacheCreation += row.tokensCacheCreation;
  into.requests += row.requests;
  into.spendMicros += spend;
}

export function summarizeKeyUsageRows(rows: Iterable<KeyUsageRow>, prices: readonly RateEntry[], limit: number): KeyUsageSummary {
  const rates = modelRates(prices);
  const byModel = new Map<string, ModelUsageTotals>();
  const byKey = new Map<string, KeyUsageTotals>();
  for (const row of rows) {
    const spend = tokenCostMicrosBig(rateOf(rates, row.model), row.tokensInput, row.tokensOutput, row.tokensCacheRead, row.tokensCacheCreation);
    const mk = `${row.model}\u0000${row.provider}`;
    let m = byModel.get(mk);
    if (m === undefined) byModel.set(mk, (m = { ...zeroTotals(), model: row.model, provider: row.provider }));
    add(m, row, spend);
    let k = byKey.get(row.keyId);
    if (k === undefined) byKey.set(row.keyId, (k = { ...zeroTotals(), keyId: row.keyId }));
    add(k, row, spend);
  }
  const top = new TopKeys(limit);
  for (const k of byKey.values()) top.offer(k);
  return { byModel: [...byModel.values()], topKeys: top.sorted(), truncated: byKey.size > limit };
}
