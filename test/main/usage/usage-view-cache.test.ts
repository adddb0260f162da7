// GET /usage's JSON text: built from the summary like buildUsageView, reused while the summary
// object, day, currency and the top keys' names are the same, with as_of moving on.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UsageViewCache } from '../../../src/main/usage/usage-view-cache.js';
import { buildUsageView } from '../../../src/main/usage/usage-view.js';
import type { KeyUsageSummary } from '../../../src/main/usage/usage-summary.js';

const DAY = 1_700_006_400 - (1_700_006_400 % 86_400);

function totals(n: number) {
  return { tokensInput: n, tokensOutput: 2 * n, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 1, spendMicros: BigInt(5 * n) };
}

function summary(): KeyUsageSummary {
  return {
    byModel: [{ ...totals(60), model: 'gpt', provider: 'openai' }],
    topKeys: [
      { ...totals(30), keyId: 'k3' },
      { ...totals(20), keyId: 'k2' },
    ],
    truncated: true,
  };
}

/** A new cache, the summary, and the key names it reads (k3 three, k2 two), changeable. */
function fresh() {
  const names = new Map([
    ['k3', 'three'],
    ['k2', 'two'],
  ]);
  return { names, keyName: (id: string) => names.get(id) ?? null, cache: new UsageViewCache(), s: summary() };
}

describe('UsageViewCache', () => {
  it('writes what buildUsageView builds, and only as_of moves on a reuse', () => {
    const { keyName, cache, s } = fresh();
    const first = cache.text(DAY, s, 'USD', keyName, DAY + 10);
    assert.deepEqual(JSON.parse(first), JSON.parse(JSON.stringify(buildUsageView(DAY, s, 'USD', keyName, DAY + 10))));
    assert.deepEqual(Object.keys(JSON.parse(first)), ['window', 'as_of', 'currency', 'total', 'by_model', 'by_key', 'by_key_truncated', 'others']);
    const second = cache.text(DAY, s, 'USD', keyName, DAY + 11);
    assert.deepEqual(JSON.parse(second), { ...JSON.parse(first), as_of: DAY + 11 });
  });

  it('builds again for another summary, currency or day, and after a key was renamed or deleted', () => {
    const { names, keyName, cache, s } = fresh();
    cache.text(DAY, s, 'USD', keyName, DAY);
    const changed = { ...s, topKeys: [{ ...totals(40), keyId: 'k3' }, s.topKeys[1]!] };
    assert.equal(JSON.parse(cache.text(DAY, changed, 'USD', keyName, DAY)).by_key[0].tokens_input, 40);
    assert.equal(JSON.parse(cache.text(DAY, changed, 'EUR', keyName, DAY)).currency, 'EUR');
    assert.equal(JSON.parse(cache.text(DAY - 86_400, changed, 'EUR', keyName, DAY)).window.start, DAY - 86_400);
    names.set('k2', 'renamed');
    assert.equal(JSON.parse(cache.text(DAY - 86_400, changed, 'EUR', keyName, DAY)).by_key[1].name, 'renamed');
    names.delete('k3');
    assert.equal(JSON.parse(cache.text(DAY - 86_400, changed, 'EUR', keyName, DAY)).by_key[0].name, null);
  });
});
