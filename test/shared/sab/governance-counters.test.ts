import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cardRates } from '../../../src/shared/governance/card-rates.js';
import { laneId } from '../../../src/shared/governance/lane-id.js';
import { keySpend, ledgerKeyTokens } from '../../../src/shared/governance/spend.js';
import type { RateEntry } from '../../../src/shared/governance/pricing.js';
import {
  GOV_BUDGET_REQUESTS,
  GOV_KEY_BUDGET_OVERFLOW,
  GOV_KEY_BUDGET_REQUESTS,
  GOV_KEY_MINUTE_REQUESTS,
  GOV_KEY_RECORD_WORDS,
  GOV_KEY_VALUE_COUNT,
  GOV_REFUSED,
  GOV_REQUESTS,
  GOV_TOKENS,
  SharedInvariantError,
  SharedState,
  SlotRegistry,
  workerHolder,
} from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry } {
  const main = SharedState.create({ holders: 3 });
  return { main, registry: new SlotRegistry(main) };
}

describe('governance counters', () => {
  it('a key record is 184 bytes (under 200) and holds every window of the key', () => {
    const { main, registry } = setup();
    const before = registry.bytesNeeded();
    const k = registry.allocateKeySlot();
    assert.equal(registry.bytesNeeded() - before, 184);
    assert.equal(GOV_KEY_RECORD_WORDS * 4, 184);
    const g = main.governance;
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), 10);
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), 10);
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), GOV_REFUSED);
    g.add(g.keyIndex(k, GOV_KEY_BUDGET_OVERFLOW), 3, 2 ** 40);
    assert.equal(g.read(g.keyIndex(k, GOV_KEY_BUDGET_OVERFLOW), 3), 2 ** 40);
    assert.throws(() => g.keyIndex(k, GOV_KEY_VALUE_COUNT), RangeError);
  });

  it('a new window starts at zero without a separate roll, and a stale refund cannot touch it', () => {
    const { main, registry } = setup();
    const grp = registry.groupSlot('acme');
    const w = SharedState.attach(main.buffers(), workerHolder(0));
    const at = main.governance.groupIndex(grp, 0, GOV_REQUESTS);
    // Window 5: fill to the cap of 3.
    for (let i = 0; i < 3; i++) assert.equal(w.governance.tryReserve(at, 5, 1, 3), 5);
    assert.equal(w.governance.tryReserve(at, 5, 1, 3), GOV_REFUSED);
    // Window 6 begins: the first reserve writes the new tag and counts from 0.
    assert.equal(main.governance.tryReserve(at, 6, 1, 3), 6);
    assert.equal(main.governance.read(at, 6), 1);
    assert.equal(main.governance.read(at, 5), 1, 'a reader of the old window sees the newer one');
    // A refund of a window-5 reservation arriving late is dropped: window 6 is not driven down.
    w.governance.refund(at, 5, 1);
    assert.equal(main.governance.read(at, 6), 1);
    // A thread still computing window 5 lands in window 6 (the stored one is newer).
    assert.equal(w.governance.tryReserve(at, 5, 1, 3), 6);
    assert.equal(main.governance.read(at, 6), 2);
    // A refund in the right window never goes below zero.
    main.governance.refund(at, 6, 10);
    assert.equal(main.governance.read(at, 6), 0);
  });

  it('a zero-delta check refuses a spent limit; tokens and budget requests are separate values', () => {
    const { main, registry } = setup();
    const grp = registry.groupSlot('acme');
    const g = main.governance;
    const tokens = g.groupIndex(grp, 2, GOV_TOKENS);
    assert.equal(g.tryReserve(tokens, 1, 0, 100), 1);
    g.add(tokens, 1, 100);
    assert.equal(g.tryReserve(tokens, 1, 0, 100), GOV_REFUSED);
    assert.equal(g.read(g.groupIndex(grp, 2, GOV_BUDGET_REQUESTS), 1), 0);
  });

  it('spend is recomputed from raw tokens per lane at the current rate card', () => {
    const { main, registry } = setup();
    const g = main.governance;
    const k = registry.allocateKeySlot();
    const rate = (model: string, input: number, output: number): RateEntry => ({
      model,
      tier: '*',
      input_micros_per_mtok: input,
      output_micros_per_mtok: output,
      cache_read_micros_per_mtok: 0,
      cache_creation_micros_per_mtok: 0,
    });
    const cheap = [rate('*', 1_000_000, 2_000_000), rate('big', 10_000_000, 20_000_000)];
    const usage = { input: 1_000, output: 500, cacheRead: 0, cacheCreation: 0 };
    g.tryReserve(g.keyIndex(k, GOV_KEY_BUDGET_REQUESTS), 4, 1, -1);
    g.tryReserve(g.keyIndex(k, GOV_KEY_BUDGET_REQUESTS), 4, 1, -1);
    ledgerKeyTokens(g, k, 4, laneId('small'), usage, cardRates(cheap));
    ledgerKeyTokens(g, k, 4, laneId('big'), usage, cardRates(cheap));
    // 2 requests x fee 7 + small (1000 x 1 + 500 x 2) + big (1000 x 10 + 500 x 20).
    assert.equal(keySpend(g, k, 4, 7, cardRates(cheap)), 14 + 2_000 + 20_000);
    // A new card re-prices the same stored tokens; a new fee re-prices the same requests.
    const dear = [rate('*', 3_000_000, 3_000_000), rate('big', 1_000_000, 1_000_000)];
    assert.equal(keySpend(g, k, 4, 100, cardRates(dear)), 200 + 4_500 + 1_500);
    assert.equal(keySpend(g, k, 4, 0, null), 0, 'no card: tokens are free');
    assert.equal(keySpend(g, k, 5, 7, cardRates(cheap)), 7 * 0, 'a later window starts at zero');
  });

  it("a lane beyond the key's lane slots accrues its cost in the overflow value", () => {
    const { main, registry } = setup();
    const g = main.governance;
    const k = registry.allocateKeySlot();
    const card = cardRates([
      { model: '*', tier: '*', input_micros_per_mtok: 1_000_000, output_micros_per_mtok: 0, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 },
    ]);
    const usage = { input: 10, output: 0, cacheRead: 0, cacheCreation: 0 };
    for (const lane of ['a', 'b', 'c', 'd', 'e']) ledgerKeyTokens(g, k, 1, laneId(lane), usage, card);
    assert.equal(g.read(g.keyIndex(k, GOV_KEY_BUDGET_OVERFLOW), 1), 20);
    assert.equal(keySpend(g, k, 1, 0, card), 50);
  });

  it('counts cross 2^32 exactly (the 32-bit fast path hands over to the 64-bit word)', () => {
    const { main, registry } = setup();
    const g = main.governance;
    const at = g.groupIndex(registry.groupSlot('big'), 4, GOV_TOKENS);
    g.add(at, 0, 2 ** 32 - 2);
    assert.equal(g.tryReserve(at, 0, 1, -1), 0);
    assert.equal(g.read(at, 0), 2 ** 32 - 1);
    assert.equal(g.tryReserve(at, 0, 1, 2 ** 32), 0, 'past lo: the wide path');
    assert.equal(g.read(at, 0), 2 ** 32);
    assert.equal(g.tryReserve(at, 0, 1, 2 ** 32), GOV_REFUSED, 'the cap holds on the wide path');
    g.add(at, 0, 5);
    assert.equal(g.read(at, 0), 2 ** 32 + 5);
    assert.equal(g.tryReserve(at, 0, 0, 2 ** 33), 0);
    // A new window starts from zero and is back on the fast path.
    assert.equal(g.tryReserve(at, 1, 3, 3), 1);
    assert.equal(g.tryReserve(at, 1, 1, 3), GOV_REFUSED);
    assert.equal(g.read(at, 1), 3);
    assert.equal(g.read(at, 0), 3, 'a reader of the old window sees the newer one');
  });

  it('a never-written or long-idle word is an old window whatever the tag (upper half of the range too)', () => {
    const { main, registry } = setup();
    const g = main.governance;
    const at = g.groupIndex(registry.groupSlot('late'), 0, GOV_REQUESTS);
    // Minute tags in the upper half of the 16-bit range (weeks of every 45 days).
    assert.equal(g.tryReserve(at, 40_000, 1, 1), 40_000);
    assert.equal(g.tryReserve(at, 40_000, 1, 1), GOV_REFUSED);
    assert.equal(g.tryReserve(at, 40_001, 1, 1), 40_001, 'the next minute rolls');
    assert.equal(g.read(at, 40_001), 1);
    // Idle for 30,000 minutes: the stored window is old, not "later".
    assert.equal(g.read(at, 40_001 + 30_000 - 65_536 + 65_536), 0);
    assert.equal(g.tryReserve(at, (40_001 + 30_000) & 0xffff, 1, 1), (40_001 + 30_000) & 0xffff);
  });

  it('snapshots and restores tagged words; a freed key slot is reused zeroed', () => {
    const { main, registry } = setup();
    const g = main.governance;
    const k = registry.allocateKeySlot();
    g.add(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 9, 4);
    const snap = g.snapshot(k, false);
    assert.ok(snap !== null);
    registry.releaseKeySlot(k);
    const again = registry.allocateKeySlot();
    assert.equal(again, k);
    assert.equal(g.read(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 9), 0);
    assert.equal(g.snapshot(k, false), null);
    assert.equal(g.restore(k, false, ['1', '2', '3', '4', '5']), false, "an older layout's words are not placed");
    assert.equal(g.snapshot(k, false), null);
    assert.equal(g.restore(k, false, snap), true);
    assert.equal(g.read(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 9), 4);
  });
});

describe('governance key dirty flag', () => {
  it('is set by a worker and taken once by main', () => {
    const { main, registry } = setup();
    const k = registry.allocateKeySlot();
    const w = SharedState.attach(main.buffers(), workerHolder(0));
    assert.equal(main.governance.takeKeyDirty(k), false);
    w.governance.markKeyDirty(k);
    w.governance.markKeyDirty(k);
    assert.equal(main.governance.takeKeyDirty(k), true);
    assert.equal(main.governance.takeKeyDirty(k), false);
  });
});

describe('governance concurrency', () => {
  it("bounds in-flight requests per group, and reclaims a dead holder's share", () => {
    const { main, registry } = setup();
    const c = registry.groupSlot('acme');
    const w = SharedState.attach(main.buffers(), workerHolder(1));
    assert.equal(w.governance.tryEnter(c, 2), true);
    assert.equal(main.governance.tryEnter(c, 2), true);
    assert.equal(main.governance.tryEnter(c, 2), false);
    assert.equal(main.governance.inflight(c), 2);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 1, probes: 0, reservations: 0 });
    main.governance.leave(c);
    assert.equal(main.governance.inflight(c), 0);
    assert.throws(() => main.governance.leave(c), SharedInvariantError);
  });
});
