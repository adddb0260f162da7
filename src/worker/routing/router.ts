// The routing step of the pipeline, one per worker: the pipeline asks it for the next attempt
// (select / selectDirect), reports each attempt's outcome (endAttempt), and asks what to do
// when no member is left (exhaustion). Breaker transitions are BreakerPolicy's; which members
// may be picked is availabilityOf's; the order is SWRR's (or affinity's, or a gate's).
import type { Runtime } from '../runtime.js';
import type { LaneRuntime } from '../runtime.js';
import type { Logger } from '../../shared/log.js';
import type { SharedState } from '../../shared/sab/index.js';
import { BREAKER_CLOSED, CELL_HARD_DOWN_AUTH, CELL_HARD_DOWN_BILLING } from '../../shared/sab/layout.js';
import { AT_CAPACITY_RECOVERY_MS, Availability, availabilityOf, recoveryHintMs } from '../../shared/routing/availability.js';
import { AttemptOutcome, movesBreaker, type FailoverReason } from '../../shared/routing/attempt-outcome.js';
import { BreakerEffect, BreakerPolicy, DEFAULT_BREAKER } from '../../shared/routing/breaker-policy.js';
import type { LaneGauges } from '../lane-gauges.js';
import type { AttemptPlan } from './attempt-plan.js';
import { WEIGHTED_POLICY } from '../../shared/metrics/catalog.js';

/** What exhaustion resolves to. */
export const enum Exhaustion {
  /** Answer 503 with Retry-After = router.retryAfterSecs. */
  Reject = 0,
  /** plan.pool is now the fallback pool: select again. */
  Fallback = 1,
  /** least_bad took a member: the attempt is set up on the plan, dispatch it. */
  LeastBad = 2,
}

export class Router {
  readonly policy: BreakerPolicy;
  /** Retry-After seconds of the last Reject (read right after exhaustion()). */
  retryAfterSecs = 0;

  constructor(
    private readonly shared: SharedState,
    private readonly gauges: LaneGauges,
    private readonly log: Logger,
    /** Epoch ms (injected so tests and the policy share one clock). */
    private readonly clockMs: () => number = Date.now,
    random: () => number = Math.random,
  ) {
    this.policy = new BreakerPolicy(shared.breakers, clockMs, random);
  }

  /**
   * Pick the next member of plan.pool and take its permit (and its probe when the cell is not
   * Closed). True with the attempt set on the plan; false when no member is left.
   */
  select(plan: AttemptPlan): boolean {
    const pool = plan.pool!;
    const shared = this.shared;
    for (;;) {
      plan.beginPick(shared, this.clockMs());
      let member = this.pick(plan);
      if (member < 0) {
        // Nothing available: a member only in its short cooldown is better than a 503.
        plan.softPass = true;
        member = this.pick(plan);
        plan.softPass = false;
      }
      if (member < 0) return false;
      const lane = pool.members[member]!;
      const compiledMember = pool.compiled.members[member]!;
      // Tried from here on, whether or not the permit or probe is won: a request queues nowhere.
      plan.markTried(lane.index);
      if (this.take(plan, lane, compiledMember.cellSlot)) {
        plan.member = member;
        plan.breaker = pool.compiled.breaker;
        // The built-in policy ordered this request's first pick (gate hooks count their own).
        if (plan.hops === 1 && plan.gateOrder === null) this.shared.metrics.counterAdd(pool.compiled.metrics.policySelections[WEIGHTED_POLICY]!);
        return true;
      }
    }
  }

  private pick(plan: AttemptPlan): number {
    return plan.gateOrder !== null ? plan.pickByGateOrder() : plan.affinity !== -1 ? plan.pickByAffinity() : plan.pool!.cursor.pick(plan);
  }

  /** A direct route: the lane-default cell, no failover. */
  selectDirect(plan: AttemptPlan, lane: LaneRuntime): Availability {
    const cell = lane.compiled.defaultCellSlot;
    let availability = availabilityOf(this.shared, cell, lane.compiled, this.clockMs());
    // The only lane of a direct route: its short cooldown (no trip) does not refuse it.
    if (availability === Availability.BreakerOpen && this.shared.breakers.state(cell) === BREAKER_CLOSED) availability = Availability.Available;
    if (availability !== Availability.Available) return availability;
    plan.markTried(lane.index);
    if (!this.take(plan, lane, lane.compiled.defaultCellSlot)) return Availability.AtCapacity;
    plan.member = -1;
    plan.breaker = DEFAULT_BREAKER;
    return Availability.Available;
  }

  /** The probe (for a cell that is not Closed) and then the lane permit. */
  private take(plan: AttemptPlan, lane: LaneRuntime, cell: number): boolean {
    let probe = false;
    if (this.shared.breakers.state(cell) !== BREAKER_CLOSED) {
      if (!this.policy.tryBeginProbe(cell)) return false;
      probe = true;
    }
    if (!this.gauges.tryAcquire(lane.compiled)) {
      if (probe) this.policy.recordNeutral(cell, true);
      return false;
    }
    plan.lane = lane;
    plan.cell = cell;
    plan.probe = probe;
    plan.permitHeld = true;
    plan.hops++;
    return true;
  }

  /**
   * The attempt in flight ended with `outcome`: the breaker cell, the lane tally and latency,
   * the permit. Idempotent per attempt (permitHeld guards it).
   */
  endAttempt(plan: AttemptPlan, outcome: AttemptOutcome, retryAfterMs: number, nowMonoMs: number): void {
    if (!plan.permitHeld) return;
    plan.permitHeld = false;
    const lane = plan.lane!.compiled;
    const cell = plan.cell;
    const probe = plan.probe;
    plan.probe = false;
    let effect = BreakerEffect.None;
    if (outcome === AttemptOutcome.Ok) {
      effect = this.policy.recordSuccess(cell, probe);
      this.gauges.tally(lane, true);
      this.gauges.latency(lane, nowMonoMs - plan.attemptStartMs);
    } else if (movesBreaker(outcome)) {
      if (outcome === AttemptOutcome.HardDownBilling) effect = this.policy.recordHardDown(cell, CELL_HARD_DOWN_BILLING, probe);
      else if (outcome === AttemptOutcome.HardDownAuth) effect = this.policy.recordHardDown(cell, CELL_HARD_DOWN_AUTH, probe);
      else effect = this.policy.recordFailure(cell, plan.breaker, retryAfterMs, probe);
      this.gauges.tally(lane, false);
    } else {
      this.policy.recordNeutral(cell, probe);
    }
    this.gauges.release(lane);
    this.shared.metrics.counterAdd(plan.member >= 0 ? plan.pool!.compiled.members[plan.member]!.attemptSlot : lane.directAttemptSlot);
    if (effect === BreakerEffect.Tripped) {
      const tripSlot = plan.member >= 0 ? plan.pool!.compiled.members[plan.member]!.tripSlot : lane.directTripSlot;
      this.shared.metrics.counterAdd(tripSlot);
      this.log.warn(
        { pool: plan.member >= 0 ? plan.pool!.compiled.name : '', lane: lane.name, trip_count: this.shared.breakers.tripCount(cell) },
        'breaker tripped',
      );
    }
  }

  /** Count one failover of the plan's pool. */
  failedOver(plan: AttemptPlan, reason: FailoverReason): void {
    if (plan.pool !== null) this.shared.metrics.counterAdd(plan.pool.compiled.failoverSlots[reason]!);
  }

  /**
   * No member of plan.pool is left: apply on_exhausted. fallback_pool switches the plan to the
   * named pool (at most once per pool in the runtime: cycles are refused by validation and
   * guarded here); least_bad takes the soonest-cooldown untried member with a free permit.
   */
  exhaustion(plan: AttemptPlan, runtime: Runtime): Exhaustion {
    const pool = plan.pool!;
    const policy = pool.compiled.onExhausted;
    if (policy.action === 'fallback_pool') {
      const next = runtime.pools.get(policy.pool);
      if (next !== undefined && plan.poolsVisited < runtime.pools.size) {
        plan.pool = next;
        plan.poolsVisited++;
        plan.gateOrder = null;
        return Exhaustion.Fallback;
      }
      this.log.error({ pool: pool.compiled.name, fallback_pool: policy.pool }, 'fallback pool loop or unknown pool at run time: rejecting');
    } else if (policy.action === 'least_bad' && this.leastBad(plan)) {
      return Exhaustion.LeastBad;
    }
    this.retryAfterSecs = Math.ceil(this.soonestRecoveryMs(plan) / 1000);
    return Exhaustion.Reject;
  }

  /** The soonest genuine cooldown among the pool's members, or the at-capacity floor. */
  private soonestRecoveryMs(plan: AttemptPlan): number {
    const pool = plan.pool!;
    const nowMs = this.clockMs();
    let soonest = Infinity;
    for (let i = 0; i < pool.members.length; i++) {
      const cell = pool.compiled.members[i]!.cellSlot;
      const availability = availabilityOf(this.shared, cell, pool.members[i]!.compiled, nowMs);
      if (availability === Availability.BreakerOpen) soonest = Math.min(soonest, recoveryHintMs(this.shared, availability, cell, nowMs)!);
      else if (availability === Availability.Dead) {
        const left = this.shared.breakers.cooldownRemainingMs(cell, nowMs);
        if (left > 0) soonest = Math.min(soonest, left);
      }
    }
    return soonest === Infinity ? AT_CAPACITY_RECOVERY_MS : soonest;
  }

  private leastBad(plan: AttemptPlan): boolean {
    const pool = plan.pool!;
    const nowMs = this.clockMs();
    const cells = this.shared.breakers;
    // Members in order of cooldown left; each is tried for a permit until one is won.
    for (;;) {
      let best = -1;
      let bestLeft = Infinity;
      for (let i = 0; i < pool.members.length; i++) {
        const lane = pool.members[i]!;
        if (plan.triedLane(lane.index)) continue;
        if (lane.compiled.maxRequests !== 0 && this.shared.lanes.lifetimeRemaining(lane.compiled.slot, lane.compiled.maxRequests) <= 0) continue;
        const left = cells.cooldownRemainingMs(pool.compiled.members[i]!.cellSlot, nowMs);
        if (left < bestLeft) {
          bestLeft = left;
          best = i;
        }
      }
      if (best < 0) return false;
      const lane = pool.members[best]!;
      plan.markTried(lane.index);
      if (!this.gauges.tryAcquire(lane.compiled)) continue;
      this.log.warn(
        { pool: pool.compiled.name, lane: lane.compiled.name, cooldown_remaining_ms: bestLeft },
        'on_exhausted least_bad: serving a member that is not usable',
      );
      plan.lane = lane;
      plan.member = best;
      plan.cell = pool.compiled.members[best]!.cellSlot;
      plan.breaker = pool.compiled.breaker;
      plan.probe = false;
      plan.permitHeld = true;
      plan.hops++;
      return true;
    }
  }
}
