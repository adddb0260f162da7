// The availability classification routing dispatches on and /stats shows: each reason, its
// precedence, and recovery_hint_ms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { BREAKER_HALF_OPEN, BREAKER_OPEN, CELL_HARD_DOWN_BILLING } from '../../../src/shared/sab/layout.js';
import { AT_CAPACITY_RECOVERY_MS, Availability, availabilityOf, recoveryHintMs, usableBySpec } from '../../../src/shared/routing/availability.js';
import type { CompiledLane } from '../../../src/shared/config/compiled.js';

const BASE_MS = 1_700_000_000_000;
const NOW = BASE_MS + 1_000;

function setup(maxConcurrent: number, maxRequests: number) {
  const shared = SharedState.create({ holders: 2, timeBaseMs: BASE_MS });
  const slots = new SlotRegistry(shared);
  const lane: CompiledLane = {
    name: 'l',
    provider: 0,
    upstreamModel: 'l',
    maxConcurrent,
    maxRequests,
    maxOutputTokens: 0,
    slot: slots.laneSlot('l'),
    defaultCellSlot: slots.defaultCellSlot('l'),
    directDispositionSlots: [],
    directTripSlot: 0,
    directAttemptSlot: 0,
    directLatency: { firstToken: [], perOutputToken: [], tokensPerSecond: [] },
    attemptDurationSlot: 0,
  };
  return { shared, lane, cell: slots.cellSlot('p', 'l') };
}

describe('availabilityOf', () => {
  it('available, with no recovery hint', () => {
    const { shared, lane, cell } = setup(0, 0);
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.Available);
    assert.equal(recoveryHintMs(shared, Availability.Available, cell, NOW), null);
  });

  it('at_capacity when every permit is held; 2000 ms hint', () => {
    const { shared, lane, cell } = setup(1, 0);
    assert.ok(shared.lanes.tryAcquirePermit(lane.slot, 1));
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.AtCapacity);
    assert.equal(recoveryHintMs(shared, Availability.AtCapacity, cell, NOW), AT_CAPACITY_RECOVERY_MS);
  });

  it('a saturated open lane is breaker_open (at_capacity is its own field); hint = cooldown left', () => {
    const { shared, lane, cell } = setup(1, 0);
    assert.ok(shared.lanes.tryAcquirePermit(lane.slot, 1));
    shared.breakers.setCooldownUntil(cell, NOW + 4_000);
    shared.breakers.casState(cell, 0, BREAKER_OPEN);
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.BreakerOpen);
    assert.equal(recoveryHintMs(shared, Availability.BreakerOpen, cell, NOW), 4_000);
  });

  it('probe_in_flight while the HalfOpen probe is claimed', () => {
    const { shared, lane, cell } = setup(0, 0);
    shared.breakers.casState(cell, 0, BREAKER_HALF_OPEN);
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.Available, 'unclaimed: the next selection probes');
    assert.ok(shared.breakers.tryClaimProbe(cell));
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.ProbeInFlight);
  });

  it('budget_exhausted and dead come first and have no hint', () => {
    const { shared, lane, cell } = setup(0, 1);
    assert.ok(shared.lanes.tryTakeLifetimeRequest(lane.slot, 1));
    shared.breakers.setCooldownUntil(cell, NOW + 4_000);
    shared.breakers.casState(cell, 0, BREAKER_OPEN);
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.BudgetExhausted);
    assert.equal(recoveryHintMs(shared, Availability.BudgetExhausted, cell, NOW), null);
    shared.breakers.setHardDown(cell, CELL_HARD_DOWN_BILLING);
    assert.equal(availabilityOf(shared, cell, lane, NOW), Availability.Dead);
    assert.equal(recoveryHintMs(shared, Availability.Dead, cell, NOW), null);
  });

  it('usable (the spec): false only while a tripped breaker cools down or the lane is dead (issue 46)', () => {
    const soft = setup(0, 0);
    soft.shared.breakers.setCooldownUntil(soft.cell, NOW + 1_000);
    assert.equal(usableBySpec(soft.shared, availabilityOf(soft.shared, soft.cell, soft.lane, NOW), soft.cell, NOW), true, 'a Closed cell in its short skip');
    soft.shared.breakers.casState(soft.cell, 0, BREAKER_OPEN);
    assert.equal(usableBySpec(soft.shared, availabilityOf(soft.shared, soft.cell, soft.lane, NOW), soft.cell, NOW), false, 'tripped, cooling down');
    assert.equal(
      usableBySpec(soft.shared, availabilityOf(soft.shared, soft.cell, soft.lane, NOW + 1_000), soft.cell, NOW + 1_000),
      true,
      'tripped, cooldown over: the next selection probes',
    );

    const busy = setup(1, 0);
    assert.ok(busy.shared.lanes.tryAcquirePermit(busy.lane.slot, 1));
    const atCapacity = availabilityOf(busy.shared, busy.cell, busy.lane, NOW);
    assert.equal(atCapacity, Availability.AtCapacity, 'routing still skips it');
    assert.equal(usableBySpec(busy.shared, atCapacity, busy.cell, NOW), true, 'a lane at capacity is usable');

    const probing = setup(0, 0);
    probing.shared.breakers.casState(probing.cell, 0, BREAKER_HALF_OPEN);
    assert.ok(probing.shared.breakers.tryClaimProbe(probing.cell));
    assert.equal(usableBySpec(probing.shared, availabilityOf(probing.shared, probing.cell, probing.lane, NOW), probing.cell, NOW), true, 'HalfOpen, probe out');

    const dead = setup(0, 0);
    dead.shared.breakers.setCooldownUntil(dead.cell, NOW + 4_000);
    dead.shared.breakers.casState(dead.cell, 0, BREAKER_OPEN);
    dead.shared.breakers.setHardDown(dead.cell, CELL_HARD_DOWN_BILLING);
    assert.equal(usableBySpec(dead.shared, availabilityOf(dead.shared, dead.cell, dead.lane, NOW), dead.cell, NOW), false, 'dead');

    const spent = setup(0, 1);
    assert.ok(spent.shared.lanes.tryTakeLifetimeRequest(spent.lane.slot, 1));
    assert.equal(
      usableBySpec(spent.shared, availabilityOf(spent.shared, spent.cell, spent.lane, NOW), spent.cell, NOW),
      false,
      'max_requests spent: it can never serve again',
    );
  });
});
