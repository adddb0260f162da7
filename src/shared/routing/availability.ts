// The one classification of a (cell, lane) pair: routing dispatches on it, GET /stats and the
// admin pool reads show it, /healthz is derived from it. Reads shared memory only (a few
// atomic loads), allocates nothing.
import type { CompiledLane } from '../config/compiled.js';
import type { BreakerCells } from '../sab/breaker-cells.js';
import type { LaneCounters } from '../sab/lane-counters.js';
import { BREAKER_CLOSED, BREAKER_HALF_OPEN, BREAKER_OPEN, CELL_HARD_DOWN_NONE } from '../sab/layout.js';

export const enum Availability {
  Available = 0,
  BreakerOpen = 1,
  AtCapacity = 2,
  Dead = 3,
  BudgetExhausted = 4,
  ProbeInFlight = 5,
  /** Shown by GET /stats while the answering worker sheds load (worker/overload); routing never sees it. */
  Shedding = 6,
}

/** The spec's names, indexed by Availability. */
export const AVAILABILITY_NAMES = ['available', 'breaker_open', 'at_capacity', 'dead', 'budget_exhausted', 'probe_in_flight', 'shedding'] as const;

export const BREAKER_STATE_NAMES = ['closed', 'half_open', 'open'] as const;

/** The at-capacity recovery floor: `recovery_hint_ms` and the 503's Retry-After. */
export const AT_CAPACITY_RECOVERY_MS = 2_000;

/** Reasons a hard-down cell shows as its `dead_reason`, by CELL_HARD_DOWN_* code. */
export const HARD_DOWN_REASON_NAMES = [null, 'billing', 'auth'] as const;

export interface SharedReads {
  readonly breakers: BreakerCells;
  readonly lanes: LaneCounters;
}

/**
 * Why the lane could not take a request through `cell` now, or Available. The order is the
 * order of precedence: a reason without self-recovery first, then the breaker (a saturated
 * open lane is `breaker_open`; `at_capacity` is shown beside it as its own field).
 *
 * An Open cell whose cooldown is over is Available: the next selection takes its single probe
 * (BreakerPolicy.tryBeginProbe), and a selector that loses that CAS sees ProbeInFlight.
 */
export function availabilityOf(shared: SharedReads, cell: number, lane: CompiledLane, nowMs: number): Availability {
  const cells = shared.breakers;
  const state = cells.state(cell);
  const coolingMs = cells.cooldownRemainingMs(cell, nowMs);
  if (state !== BREAKER_CLOSED && coolingMs > 0 && cells.hardDown(cell) !== CELL_HARD_DOWN_NONE) return Availability.Dead;
  if (shared.lanes.deadReason(lane.slot) !== 0) return Availability.Dead;
  if (lane.maxRequests !== 0 && shared.lanes.lifetimeRemaining(lane.slot, lane.maxRequests) <= 0) return Availability.BudgetExhausted;
  if (coolingMs > 0 && state !== BREAKER_HALF_OPEN) return Availability.BreakerOpen;
  if (state === BREAKER_HALF_OPEN && cells.probeInFlight(cell)) return Availability.ProbeInFlight;
  if (lane.maxConcurrent !== 0 && shared.lanes.availablePermits(lane.slot, lane.maxConcurrent) <= 0) return Availability.AtCapacity;
  return Availability.Available;
}

/**
 * A lower bound in ms on when the lane could next serve through `cell`; null when available
 * or when the reason has no self-recovery (dead, budget).
 */
export function recoveryHintMs(shared: SharedReads, availability: Availability, cell: number, nowMs: number): number | null {
  switch (availability) {
    case Availability.BreakerOpen:
      return Math.max(1, Math.ceil(shared.breakers.cooldownRemainingMs(cell, nowMs)));
    case Availability.AtCapacity:
    case Availability.ProbeInFlight:
    case Availability.Shedding:
      return AT_CAPACITY_RECOVERY_MS;
    default:
      return null;
  }
}

/**
 * The spec's `usable` (PoolMemberStatusView, the lane record, /healthz): false only while a
 * tripped breaker cools down (an Open cell before its cooldown ends) or the lane is dead, which
 * here includes a lane whose max_requests lifetime budget is spent (it can never serve again,
 * like a dead one; its `dead` field stays the spec's hard-down flag). A lane at capacity, a
 * HalfOpen cell whose probe is out and a Closed cell in its short skip are usable: a busy node
 * is not an unhealthy one. Routing does not read this; it dispatches on availabilityOf (at
 * capacity: skip).
 */
export function usableBySpec(shared: SharedReads, availability: Availability, cell: number, nowMs: number): boolean {
  if (availability === Availability.Dead || availability === Availability.BudgetExhausted) return false;
  return !(shared.breakers.state(cell) === BREAKER_OPEN && shared.breakers.cooldownRemainingMs(cell, nowMs) > 0);
}
