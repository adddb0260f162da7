import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GOV_REQUESTS, GOV_SPEND_MICROS, GOV_TOKENS, SharedInvariantError, SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry } {
  const main = SharedState.create({ holders: 3 });
  return { main, registry: new SlotRegistry(main) };
}

describe('governance counters', () => {
  it('adds and reads each field independently, past 2^53 for money', () => {
    const { main, registry } = setup();
    const g = registry.governanceSlot('group:acme@day');
    main.governance.add(g, GOV_REQUESTS, 1n);
    main.governance.add(g, GOV_TOKENS, 1234n);
    const big = 2n ** 60n;
    main.governance.add(g, GOV_SPEND_MICROS, big);
    main.governance.add(g, GOV_SPEND_MICROS, 7n);
    assert.equal(main.governance.read(g, GOV_REQUESTS), 1n);
    assert.equal(main.governance.read(g, GOV_TOKENS), 1234n);
    assert.equal(main.governance.read(g, GOV_SPEND_MICROS), big + 7n);
    main.governance.add(g, GOV_SPEND_MICROS, -7n);
    assert.equal(main.governance.read(g, GOV_SPEND_MICROS), big);
    assert.throws(() => main.governance.read(g, 3), RangeError);
  });

  it('tryAdd never passes the max', () => {
    const { main, registry } = setup();
    const g = registry.governanceSlot('key:k1@minute');
    assert.equal(main.governance.tryAdd(g, GOV_REQUESTS, 1n, 2n), true);
    assert.equal(main.governance.tryAdd(g, GOV_REQUESTS, 1n, 2n), true);
    assert.equal(main.governance.tryAdd(g, GOV_REQUESTS, 1n, 2n), false);
    assert.equal(main.governance.tryAdd(g, GOV_TOKENS, 500n, 400n), false);
    assert.equal(main.governance.read(g, GOV_REQUESTS), 2n);
    assert.equal(main.governance.read(g, GOV_TOKENS), 0n);
  });

  it('rolls a window once and zeroes it', () => {
    const { main, registry } = setup();
    const g = registry.governanceSlot('group:acme@minute');
    const w = SharedState.attach(main.buffers(), workerHolder(0));
    assert.equal(main.governance.windowStartSec(g), 0);
    assert.equal(main.governance.tryRollWindow(g, 0, 60), true);
    main.governance.add(g, GOV_REQUESTS, 5n);
    main.governance.set(g, GOV_SPEND_MICROS, 99n);
    assert.equal(w.governance.tryRollWindow(g, 60, 120), true);
    assert.equal(main.governance.tryRollWindow(g, 60, 120), false, 'the second roller loses');
    assert.equal(main.governance.windowStartSec(g), 120);
    assert.equal(main.governance.read(g, GOV_REQUESTS), 0n);
    assert.equal(main.governance.read(g, GOV_SPEND_MICROS), 0n);
    assert.throws(() => main.governance.tryRollWindow(g, 120, -1), RangeError);
  });
});

describe('governance concurrency', () => {
  it('bounds in-flight requests per bucket, and reclaims a dead holder\'s share', () => {
    const { main, registry } = setup();
    const c = registry.concurrencySlot('group:acme@total');
    const w = SharedState.attach(main.buffers(), workerHolder(1));
    assert.equal(w.concurrency.tryAcquire(c, 2), true);
    assert.equal(main.concurrency.tryAcquire(c, 2), true);
    assert.equal(main.concurrency.tryAcquire(c, 2), false);
    assert.equal(main.concurrency.inflight(c), 2);
    assert.equal(main.concurrency.available(c, 3), 1);
    assert.equal(main.concurrency.available(c, 0), Infinity);
    assert.equal(w.concurrency.heldByThisThread(c), 1);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 1, probes: 0 });
    main.concurrency.release(c);
    assert.equal(main.concurrency.inflight(c), 0);
    assert.throws(() => main.concurrency.release(c), SharedInvariantError);
  });
});
