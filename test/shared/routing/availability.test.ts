// The availability classification routing dispatches on and /stats shows: each reason, its
// precedence, and recovery_hint_ms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { BREAKER_HALF_OPEN, BREAKER_OPEN, CELL_HARD_DOWN_BILLING } from '../../../src/shared/sab/layout.js';
import { AT_CAPACITY_RECOVERY_MS, Availability, availabilityOf, recoveryHintMs, usableNow } from '../../../src/shared/routing/availability.js';
import type { CompiledLane } from '../../../src/shared/config/compiled.js';

const BASE_MS = 1_700_000_000_000;
const NOW = BASE_MS + 1_000;

function setup(maxConcurrent: number, maxRequests: number) {
  const shared = SharedState.create({ holders: 2, timeBaseMs: BASE_MS });
  const slots = new SlotRegistry(shared);
  const lane: CompiledLane = {
    name: 'l', provider: 0, upstreamModel: 'l', maxConcurrent, maxRequests, maxOutputTokens: 0,
    slot: slots.laneSlot('l'), defaultCellSlot: slots.defaultCellSlot('l'), directDispositionSlots: [], directTripSlot: 0, directAttemptSlot: 0,
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

  it('usable: available, or a Closed cell only in its short cooldown; never a tripped one', () => {
    const { shared, lane, cell } = setup(0, 0);
    shared.breakers.setCooldownUntil(cell, NOW + 1_000);
    const soft = availabilityOf(shared, cell, lane, NOW);
    assert.equal(soft, Availability.BreakerOpen);
    assert.equal(usableNow(shared, soft, cell), true);
    shared.breakers.casState(cell, 0, BREAKER_OPEN);
    assert.equal(usableNow(shared, availabilityOf(shared, cell, lane, NOW), cell), false);
  });
});
