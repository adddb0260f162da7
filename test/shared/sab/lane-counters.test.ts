import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedInvariantError, SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry; lane: number } {
  const main = SharedState.create({ holders: 3 });
  const registry = new SlotRegistry(main);
  return { main, registry, lane: registry.laneSlot('gpt') };
}

describe('lane permits', () => {
  it('a bounded lane admits up to its limit and no further', () => {
    const { main, lane } = setup();
    assert.equal(main.lanes.tryAcquirePermit(lane, 2), true);
    assert.equal(main.lanes.tryAcquirePermit(lane, 2), true);
    assert.equal(main.lanes.tryAcquirePermit(lane, 2), false);
    assert.equal(main.lanes.laneInflight(lane), 2);
    assert.equal(main.lanes.availablePermits(lane, 2), 0);
    main.lanes.releasePermit(lane);
    assert.equal(main.lanes.availablePermits(lane, 2), 1);
    assert.equal(main.lanes.availablePermits(lane, 5), 4);
    assert.equal(main.lanes.heldPermits(lane), 1);
  });

  it('an unbounded lane (0) always admits but still counts in-flight', () => {
    const { main, lane } = setup();
    for (let i = 0; i < 5; i++) assert.equal(main.lanes.tryAcquirePermit(lane, 0), true);
    assert.equal(main.lanes.laneInflight(lane), 5);
    assert.equal(main.lanes.availablePermits(lane, 0), Infinity);
  });

  it('a lowered limit refuses until in-flight drains below it', () => {
    const { main, lane } = setup();
    for (let i = 0; i < 3; i++) main.lanes.tryAcquirePermit(lane, 0);
    assert.equal(main.lanes.tryAcquirePermit(lane, 2), false);
    assert.equal(main.lanes.availablePermits(lane, 2), 0);
    main.lanes.releasePermit(lane);
    main.lanes.releasePermit(lane);
    assert.equal(main.lanes.tryAcquirePermit(lane, 2), true);
  });

  it('a release without a held permit throws, counts a fault and changes nothing', () => {
    const { main, lane } = setup();
    assert.throws(() => main.lanes.releasePermit(lane), SharedInvariantError);
    assert.equal(main.lanes.laneInflight(lane), 0);
    assert.equal(main.faultCount(), 1);
  });

  it('a thread cannot release a permit another thread holds', () => {
    const { main, lane } = setup();
    const worker = SharedState.attach(main.buffers(), workerHolder(0));
    assert.equal(worker.lanes.tryAcquirePermit(lane, 1), true);
    assert.throws(() => main.lanes.releasePermit(lane), SharedInvariantError);
    assert.equal(main.lanes.laneInflight(lane), 1);
    worker.lanes.releasePermit(lane);
    assert.equal(main.lanes.laneInflight(lane), 0);
  });

  it('rejects a limit outside the Int32 range', () => {
    const { main, lane } = setup();
    assert.throws(() => main.lanes.tryAcquirePermit(lane, -1), RangeError);
    assert.throws(() => main.lanes.tryAcquirePermit(lane, 2 ** 31), RangeError);
  });

  it('reclaims the permits of a holder that died', () => {
    const { main, registry, lane } = setup();
    const other = registry.laneSlot('claude');
    const worker = SharedState.attach(main.buffers(), workerHolder(1));
    worker.lanes.tryAcquirePermit(lane, 0);
    worker.lanes.tryAcquirePermit(lane, 0);
    worker.lanes.tryAcquirePermit(other, 4);
    main.lanes.tryAcquirePermit(lane, 0);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 3, probes: 0, reservations: 0 });
    assert.equal(main.lanes.laneInflight(lane), 1);
    assert.equal(main.lanes.laneInflight(other), 0);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 0, probes: 0, reservations: 0 });
    assert.throws(() => registry.reclaimHolder(0), RangeError);
    assert.throws(() => registry.reclaimHolder(3), RangeError);
  });
});

describe('lane lifetime budget', () => {
  it('takes exactly maxRequests and then refuses', () => {
    const { main, lane } = setup();
    for (let i = 0; i < 3; i++) assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 3), true);
    assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 3), false);
    assert.equal(main.lanes.lifetimeTaken(lane), 3);
    assert.equal(main.lanes.lifetimeRemaining(lane, 3), 0);
    assert.equal(main.lanes.lifetimeRemaining(lane, 10), 7);
    assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 4), true, 'a raised budget carries the count');
  });

  it('no budget (0) admits and counts nothing', () => {
    const { main, lane } = setup();
    assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 0), true);
    assert.equal(main.lanes.lifetimeTaken(lane), 0);
    assert.equal(main.lanes.lifetimeRemaining(lane, 0), Infinity);
  });

  it('restores a count and rejects a bad one', () => {
    const { main, lane } = setup();
    main.lanes.setLifetimeTaken(lane, 9);
    assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 10), true);
    assert.equal(main.lanes.tryTakeLifetimeRequest(lane, 10), false);
    assert.throws(() => main.lanes.setLifetimeTaken(lane, -1), RangeError);
    assert.throws(() => main.lanes.tryTakeLifetimeRequest(lane, 2 ** 31), RangeError);
  });
});

describe('lane tallies and dead flag', () => {
  it('counts ok and err separately', () => {
    const { main, lane } = setup();
    main.lanes.recordOutcome(lane, true);
    main.lanes.recordOutcome(lane, true);
    main.lanes.recordOutcome(lane, false);
    assert.equal(main.lanes.laneOk(lane), 2);
    assert.equal(main.lanes.laneErr(lane), 1);
  });

  it('stores a dead reason', () => {
    const { main, lane } = setup();
    assert.equal(main.lanes.deadReason(lane), 0);
    main.lanes.setDeadReason(lane, 3);
    assert.equal(SharedState.attach(main.buffers(), 1).lanes.deadReason(lane), 3);
  });
});
