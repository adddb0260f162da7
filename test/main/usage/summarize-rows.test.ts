// The in-process aggregation (memory and valkey stores) against a plain BigInt reference: every
// row priced on its own, sums per (model, provider) and per key, a full sort for the top N. Days
// whose spend fits in 2^53 take the number pass; the 2^50-token rows push a day past it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findRate, type RateEntry } from '../../../src/shared/governance/pricing.js';
import type { KeyUsageRow } from '../../../src/main/store/records.js';
import { summarizeKeyUsageRows } from '../../../src/main/usage/summarize-rows.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const PRICES: RateEntry[] = [
  {
    model: '*',
    tier: '*',
    input_micros_per_mtok: 1_000_003,
    output_micros_per_mtok: 2_999_999,
    cache_read_micros_per_mtok: 7,
    cache_creation_micros_per_mtok: 0,
  },
  {
    model: 'b',
    tier: 'default',
    input_micros_per_mtok: 3_000_007,
    output_micros_per_mtok: 15_000_000,
    cache_read_micros_per_mtok: 300_000,
    cache_creation_micros_per_mtok: 3_750_001,
  },
];

function reference(rows: KeyUsageRow[], prices: RateEntry[], limit: number) {
  const spendOf = (r: KeyUsageRow): bigint => {
    const rate = findRate(prices, r.model);
    if (rate === null) return 0n;
    return (
      (BigInt(r.tokensInput) * BigInt(rate.input_micros_per_mtok) +
        BigInt(r.tokensOutput) * BigInt(rate.output_micros_per_mtok) +
        BigInt(r.tokensCacheRead) * BigInt(rate.cache_read_micros_per_mtok) +
        BigInt(r.tokensCacheCreation) * BigInt(rate.cache_creation_micros_per_mtok)) /
      1_000_000n
    );
  };
  const keys = new Map<string, { keyId: string; spend: bigint; requests: number }>();
  const models = new Map<string, bigint>();
  for (const r of rows) {
    const k = keys.get(r.keyId) ?? { keyId: r.keyId, spend: 0n, requests: 0 };
    k.spend += spendOf(r);
    k.requests += r.requests;
    keys.set(r.keyId, k);
    models.set(`${r.model}/${r.provider}`, (models.get(`${r.model}/${r.provider}`) ?? 0n) + spendOf(r));
  }
  const sorted = [...keys.values()].sort((a, b) => (a.spend > b.spend ? -1 : a.spend < b.spend ? 1 : a.keyId < b.keyId ? -1 : 1));
  return { top: sorted.slice(0, limit), models, truncated: keys.size > limit };
}

describe('summarizeKeyUsageRows', () => {
  for (const [label, big] of [
    ['spend below 2^53 (number pass)', false],
    ['spend past 2^53 (BigInt pass)', true],
  ] as const) {
    it(`matches a BigInt reference: ${label}`, () => {
      for (let round = 0; round < 20; round++) {
        const random = seeded(round + (big ? 1000 : 1));
        const rows: KeyUsageRow[] = [];
        const n = 1 + Math.floor(random() * 400);
        for (let i = 0; i < n; i++) {
          const tokens = (): number => Math.floor(random() * (big && i % 50 === 0 ? 2 ** 50 : 10 ** 6));
          rows.push({
            day: 0,
            keyId: `k${Math.floor(random() * 120)}`,
            model: random() < 0.5 ? 'a' : 'b',
            provider: random() < 0.5 ? 'p' : 'q',
            tokensInput: tokens(),
            tokensOutput: tokens(),
            tokensCacheRead: tokens(),
            tokensCacheCreation: tokens(),
            requests: 1 + Math.floor(random() * 3),
          });
        }
        for (const limit of [1, 10, 1000]) {
          const got = summarizeKeyUsageRows(rows, PRICES, limit);
          const want = reference(rows, PRICES, limit);
          assert.deepEqual(
            got.topKeys.map((k) => [k.keyId, k.spendMicros, k.requests]),
            want.top.map((k) => [k.keyId, k.spend, k.requests]),
            `round ${round}, limit ${limit}`,
          );
          assert.deepEqual(new Map(got.byModel.map((m) => [`${m.model}/${m.provider}`, m.spendMicros])), want.models);
          assert.equal(got.truncated, want.truncated);
        }
      }
    });
  }
});
