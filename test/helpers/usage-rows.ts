// Usage rows as the stores keep them, for the store tests: one day's counts of a pool's lane, or
// of a key and a model. No tokens and one request unless `over` says otherwise.
import type { KeyUsageRow, UsageRow } from '../../src/main/store/store.js';

const ONE_REQUEST = { provider: 'openai', tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 1 };

export function usageRow(day: number, over: Partial<UsageRow> = {}): UsageRow {
  return { day, pool: 'p', lane: 'l', ...ONE_REQUEST, truncated: 0, ...over };
}

export function keyUsageRow(day: number, over: Partial<KeyUsageRow> = {}): KeyUsageRow {
  return { day, keyId: 'k', model: 'm', ...ONE_REQUEST, ...over };
}
