// GET /usage's sqlite read through its piscina thread: while the day's per-key usage did not
// change, the same summary object comes back (so the admin handler can reuse the view it built
// from it); a flush on this connection or on another one, another limit, price list or day
// each give a fresh summary with the new numbers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../src/main/store/sqlite.js';
import { keyUsageRow } from '../../helpers/usage-rows.js';
import type { RateEntry } from '../../../src/shared/governance/pricing.js';

const DAY = 1_700_006_400 - (1_700_006_400 % 86_400);
const PRICES: RateEntry[] = [
  {
    model: '*',
    tier: '*',
    input_micros_per_mtok: 1_000_000,
    output_micros_per_mtok: 2_000_000,
    cache_read_micros_per_mtok: 0,
    cache_creation_micros_per_mtok: 0,
  },
];

const usage = (keyId: string, tokensInput: number) => keyUsageRow(DAY, { keyId, model: 'gpt', tokensInput });

describe('sqlite usage reads', () => {
  let dir: string;
  let store: SqliteStore;
  let other: SqliteStore;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-usage-reads-'));
    store = new SqliteStore(join(dir, 'gov.db'));
    other = new SqliteStore(join(dir, 'gov.db'));
    await store.addKeyUsage([usage('a', 10), usage('b', 20), usage('c', 30)]);
  });

  after(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same summary object while nothing was flushed', async () => {
    const first = await store.keyUsageSummary(DAY, PRICES, 2);
    assert.deepEqual(
      first.topKeys.map((k) => k.keyId),
      ['c', 'b'],
    );
    assert.equal(first.truncated, true);
    const second = await store.keyUsageSummary(DAY, PRICES, 2);
    assert.equal(second, first);
  });

  // In order: the second flush adds to what the first left.
  for (const [how, writer, keyId, tokens, top] of [
    ['on this connection', () => store, 'a', 100, { a: 110, c: 30 }],
    ['by another connection to the same file', () => other, 'b', 1_000, { b: 1_020, a: 110 }],
  ] as const) {
    it(`answers fresh rows after a flush ${how}`, async () => {
      const first = await store.keyUsageSummary(DAY, PRICES, 2);
      await writer().addKeyUsage([usage(keyId, tokens)]);
      const next = await store.keyUsageSummary(DAY, PRICES, 2);
      assert.notEqual(next, first);
      assert.deepEqual(
        next.topKeys.map((k) => [k.keyId, k.tokensInput]),
        Object.entries(top),
      );
    });
  }

  it('does not reuse an answer across limits, price lists or days', async () => {
    const two = await store.keyUsageSummary(DAY, PRICES, 2);
    const three = await store.keyUsageSummary(DAY, PRICES, 3);
    assert.notEqual(three, two);
    assert.equal(three.topKeys.length, 3);
    assert.equal(three.truncated, false);
    const dearer = await store.keyUsageSummary(DAY, [{ ...PRICES[0]!, input_micros_per_mtok: 3_000_000 }], 3);
    assert.notEqual(dearer, three);
    assert.equal(dearer.topKeys[0]!.spendMicros, 3n * three.topKeys[0]!.spendMicros);
    assert.deepEqual(await store.keyUsageSummary(DAY + 86_400, PRICES, 3), { byModel: [], topKeys: [], truncated: false });
    // Back to the first question: its rows again, right.
    const again = await store.keyUsageSummary(DAY, PRICES, 2);
    assert.deepEqual(again, two);
  });
});
