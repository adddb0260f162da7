// One request's routing state: which pool it is on, what it already tried, how many hops and
// how much time it has left, and the attempt in flight (lane, breaker cell, probe, permit).
// It is also the SWRR filter of its own picks (eligible()), so a pick makes no closure.
import type { CompiledBreaker } from '../../shared/config/compiled.js';
import { Availability, availabilityOf } from '../../shared/routing/availability.js';
import { rendezvousScore } from '../../shared/routing/affinity.js';
import { DEFAULT_BREAKER } from '../../shared/routing/breaker-policy.js';
import type { MemberFilter } from '../../shared/routing/swrr.js';
import type { SharedState } from '../../shared/sab/index.js';
import { BREAKER_CLOSED } from '../../shared/sab/layout.js';
import type { LaneRuntime, PoolRuntime } from '../runtime.js';

export class AttemptPlan implements MemberFilter {
  // --- the request ---
  /** Current pool; null for a direct route (the lane-default cell). */
  pool: PoolRuntime | null = null;
  /** Pools entered so far (the fallback_pool guard at run time). */
  poolsVisited = 0;
  /** Attempts dispatched (a permit taken), across pools. */
  hops = 0;
  /** Monotonic ms by which the whole request must be done (failover.timeout_secs). */
  deadlineMs = 0;
  /** FNV hash of the `affinity` header, or -1 without one. */
  affinity = -1;
  /** Lanes already tried: the first inline, the rest in a list made only on a second hop. */
  private triedFirst = -1;
  private triedMore: number[] | null = null;
  /** A gate's member order (null: SWRR). */
  gateOrder: readonly number[] | null = null;

  // --- the attempt in flight ---
  lane: LaneRuntime | null = null;
  /** Member index in `pool`, -1 for a direct route. */
  member = -1;
  cell = -1;
  breaker: CompiledBreaker = DEFAULT_BREAKER;
  /** This attempt holds the cell's HalfOpen probe. */
  probe = false;
  permitHeld = false;
  /** Monotonic ms the attempt was dispatched (latency sample). */
  attemptStartMs = 0;
  /** Monotonic ms after which this attempt counts as timed out (0 = no own deadline). */
  attemptDeadlineMs = 0;

  // --- scratch for eligible() during one pick ---
  private shared: SharedState | null = null;
  private nowMs = 0;
  /**
   * The second pass of a pick: a Closed cell that is only in its short cooldown (one failure,
   * no trip) is a soft skip: it is passed over while any other member is available, and taken
   * rather than answering 503 when it is the only one left.
   */
  softPass = false;

  /**
   * The attempt the plan holds is sent at `nowMs`: its deadline is the nearest of the request's
   * (failover.timeout_secs), the pool's attempt timeout and the upstream request timeout.
   */
  startAttempt(nowMs: number, requestTimeoutMs: number): void {
    let timeoutMs = Math.min(requestTimeoutMs, Math.max(1, Math.floor(this.deadlineMs - nowMs)));
    const attemptTimeoutMs = this.pool !== null ? this.pool.compiled.attemptTimeoutMs : 0;
    if (attemptTimeoutMs !== 0 && attemptTimeoutMs < timeoutMs) timeoutMs = attemptTimeoutMs;
    this.attemptStartMs = nowMs;
    this.attemptDeadlineMs = nowMs + timeoutMs;
  }

  triedLane(laneIndex: number): boolean {
    if (this.triedFirst === laneIndex) return true;
    const more = this.triedMore;
    if (more === null) return false;
    for (let i = 0; i < more.length; i++) if (more[i] === laneIndex) return true;
    return false;
  }

  markTried(laneIndex: number): void {
    if (this.triedFirst === -1) this.triedFirst = laneIndex;
    else if (!this.triedLane(laneIndex)) (this.triedMore ??= []).push(laneIndex);
  }

  /** Set before a pick: eligible() reads shared memory at this instant. */
  beginPick(shared: SharedState, nowMs: number): void {
    this.shared = shared;
    this.nowMs = nowMs;
  }

  /** SWRR filter: untried and Available by the one classification. */
  eligible(index: number): boolean {
    const pool = this.pool!;
    const lane = pool.members[index]!;
    if (this.triedLane(lane.index)) return false;
    const cell = pool.compiled.members[index]!.cellSlot;
    const availability = availabilityOf(this.shared!, cell, lane.compiled, this.nowMs);
    if (availability === Availability.Available) return true;
    return this.softPass && availability === Availability.BreakerOpen && this.shared!.breakers.state(cell) === BREAKER_CLOSED;
  }

  /** The eligible member the affinity value ranks highest (weighted rendezvous), or -1. */
  pickByAffinity(): number {
    const pool = this.pool!;
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < pool.members.length; i++) {
      if (!this.eligible(i)) continue;
      const score = rendezvousScore(this.affinity, i, pool.compiled.members[i]!.weight);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return best;
  }

  /** The first eligible member of the gate's order, or -1. */
  pickByGateOrder(): number {
    const order = this.gateOrder!;
    for (let i = 0; i < order.length; i++) if (this.eligible(order[i]!)) return order[i]!;
    return -1;
  }
}
