// The bounded heap behind GET /usage's top 1000: against a full sort, over random days with
// many equal spends (ties fall to the id), for limits below, at and above the key count.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TopKeys } from '../../../src/main/usage/top-keys.js';
import { spendsBefore, zeroTotals, type KeyUsageTotals } from '../../../src/main/usage/usage-summary.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('TopKeys', () => {
  it('keeps exactly what a full sort would put first, in the same order', () => {
    for (let round = 0; round < 50; round++) {
      const random = seeded(round + 1);
      const count = Math.floor(random() * 300);
      const keys: KeyUsageTotals[] = [];
      for (let i = 0; i < count; i++) {
        // Few distinct spends, so most comparisons are ties decided by the id.
        keys.push({ ...zeroTotals(), keyId: `k${Math.floor(random() * 1e6).toString(36)}-${i}`, spendMicros: BigInt(Math.floor(random() * 8)) * 10n ** 15n });
      }
      const sorted = [...keys].sort((a, b) => (spendsBefore(a, b) ? -1 : spendsBefore(b, a) ? 1 : 0));
      for (const limit of [0, 1, 7, count, count + 5]) {
        const top = new TopKeys(limit);
        for (const k of keys) top.offer(k);
        assert.deepEqual(
          top.sorted().map((k) => k.keyId),
          sorted.slice(0, limit).map((k) => k.keyId),
          `round ${round}, limit ${limit}`,
        );
        assert.equal(top.offered, count);
      }
    }
  });
});
