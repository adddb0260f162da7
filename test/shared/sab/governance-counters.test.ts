import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  GOV_KEY_BUDGET_SPEND, GOV_KEY_MINUTE_REQUESTS, GOV_REFUSED, GOV_REQUESTS, GOV_SPEND_MICROS, GOV_TOKENS,
  SharedInvariantError, SharedState, SlotRegistry, workerHolder,
} from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry } {
  const main = SharedState.create({ holders: 3 });
  return { main, registry: new SlotRegistry(main) };
}

describe('governance counters', () => {
  it('a key record is 48 bytes and holds every window of the key', () => {
    const { main, registry } = setup();
    const before = registry.bytesNeeded();
    const k = registry.allocateKeySlot();
    assert.equal(registry.bytesNeeded() - before, 48);
    const g = main.governance;
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), 10);
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), 10);
    assert.equal(g.tryReserve(g.keyIndex(k, GOV_KEY_MINUTE_REQUESTS), 10, 1, 2), GOV_REFUSED);
    g.add(g.keyIndex(k, GOV_KEY_BUDGET_SPEND), 3, 2 ** 40);
    assert.equal(g.read(g.keyIndex(k, GOV_KEY_BUDGET_SPEND), 3), 2 ** 40);
    assert.throws(() => g.keyIndex(k, 5), RangeError);
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

  it('a zero-delta check refuses a spent budget; tokens and spend are separate values', () => {
    const { main, registry } = setup();
    const grp = registry.groupSlot('acme');
    const g = main.governance;
    const spend = g.groupIndex(grp, 2, GOV_SPEND_MICROS);
    assert.equal(g.tryReserve(spend, 1, 0, 100), 1);
    g.add(spend, 1, 100);
    assert.equal(g.tryReserve(spend, 1, 0, 100), GOV_REFUSED);
    assert.equal(g.read(g.groupIndex(grp, 2, GOV_TOKENS), 1), 0);
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
    g.restore(k, false, snap);
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
  it('bounds in-flight requests per group, and reclaims a dead holder\'s share', () => {
    const { main, registry } = setup();
    const c = registry.groupSlot('acme');
    const w = SharedState.attach(main.buffers(), workerHolder(1));
    assert.equal(w.governance.tryEnter(c, 2), true);
    assert.equal(main.governance.tryEnter(c, 2), true);
    assert.equal(main.governance.tryEnter(c, 2), false);
    assert.equal(main.governance.inflight(c), 2);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 1, probes: 0 });
    main.governance.leave(c);
    assert.equal(main.governance.inflight(c), 0);
    assert.throws(() => main.governance.leave(c), SharedInvariantError);
  });
});
