// Per-lane words every worker shares: the concurrency permits (lane-global, across pools),
// the `max_requests` lifetime budget, the dead flag, and the ok/err tallies. `lane` is the
// lane's slot from the SlotRegistry (CompiledLane.slot).
import { INT32_COUNT_MAX, LANE_DEAD_REASON, LANE_ERR, LANE_HOLDERS, LANE_LATENCY_EWMA_US, LANE_LIFETIME_TAKEN, LANE_OK } from './layout.js';
import { permitsAvailable, permitsHeldBy, permitsInflight, reclaimPermits, releasePermit, tryAcquirePermit } from './permit-block.js';
import type { SharedViews } from './shared-views.js';
import { wideAdd, wideRead } from './wide-counter.js';

export class LaneCounters {
  /** Word offset of this thread's shadow inside a lane record. */
  private readonly holderAt: number;

  constructor(
    private readonly views: SharedViews,
    holderId: number,
  ) {
    this.holderAt = LANE_HOLDERS + holderId;
  }

  /** Take a permit if the lane has fewer than `maxConcurrent` in flight (0 = unbounded,
   * still counted). Never exceeds the limit under contention (CAS loop). */
  tryAcquirePermit(lane: number, maxConcurrent: number): boolean {
    return tryAcquirePermit(this.views, lane, this.holderAt, maxConcurrent);
  }

  /** Give back a permit this thread took; throws SharedInvariantError if it holds none. */
  releasePermit(lane: number): void {
    releasePermit(this.views, lane, this.holderAt, 'lane permit');
  }

  laneInflight(lane: number): number {
    return permitsInflight(this.views, lane);
  }

  /** Free permits under `maxConcurrent`, or Infinity for an unbounded lane. */
  availablePermits(lane: number, maxConcurrent: number): number {
    return permitsAvailable(this.views, lane, maxConcurrent);
  }

  /** Permits this thread holds on the lane. */
  heldPermits(lane: number): number {
    return permitsHeldBy(this.views, lane, this.holderAt);
  }

  /** Main thread only, after holder `holderId` exited: free what it held. */
  reclaimHolder(lane: number, holderId: number): number {
    return reclaimPermits(this.views, lane, LANE_HOLDERS + holderId);
  }

  /**
   * Count one request against the lifetime budget; false once `maxRequests` are taken.
   * 0 = no budget: nothing is counted. A CAS loop for the same reason as permits: the budget
   * is never overshot however many workers race for the last request.
   */
  tryTakeLifetimeRequest(lane: number, maxRequests: number): boolean {
    if (maxRequests === 0) return true;
    if (!(maxRequests > 0 && maxRequests <= INT32_COUNT_MAX)) throw new RangeError(`max_requests must be 0..${INT32_COUNT_MAX}, got ${maxRequests}`);
    const at = lane + LANE_LIFETIME_TAKEN;
    const i32 = this.i32(lane);
    let taken = Atomics.load(i32, at);
    for (;;) {
      if (taken >= maxRequests) return false;
      const seen = Atomics.compareExchange(i32, at, taken, taken + 1);
      if (seen === taken) return true;
      taken = seen;
    }
  }

  lifetimeTaken(lane: number): number {
    return Atomics.load(this.i32(lane), lane + LANE_LIFETIME_TAKEN);
  }

  /** Requests left under `maxRequests`; Infinity when there is no budget (0). */
  lifetimeRemaining(lane: number, maxRequests: number): number {
    if (maxRequests === 0) return Infinity;
    const left = maxRequests - Atomics.load(this.i32(lane), lane + LANE_LIFETIME_TAKEN);
    return Math.max(left, 0);
  }

  /** Restore or reset the lifetime count (main thread, e.g. from the store at boot). */
  setLifetimeTaken(lane: number, taken: number): void {
    if (!(taken >= 0 && taken <= INT32_COUNT_MAX && Number.isInteger(taken)))
      throw new RangeError(`lifetime count must be 0..${INT32_COUNT_MAX}, got ${taken}`);
    Atomics.store(this.i32(lane), lane + LANE_LIFETIME_TAKEN, taken);
  }

  /** Tally one finished request. A plain atomic add: tallies have no limit to enforce. */
  recordOutcome(lane: number, ok: boolean): void {
    wideAdd(this.views, lane + (ok ? LANE_OK : LANE_ERR), 1);
  }

  laneOk(lane: number): number {
    return wideRead(this.u32(lane), lane + LANE_OK);
  }

  laneErr(lane: number): number {
    return wideRead(this.u32(lane), lane + LANE_ERR);
  }

  /** 0 = alive; otherwise the dead-reason code the routing policy stored. */
  deadReason(lane: number): number {
    return Atomics.load(this.i32(lane), lane + LANE_DEAD_REASON);
  }

  setDeadReason(lane: number, reason: number): void {
    Atomics.store(this.i32(lane), lane + LANE_DEAD_REASON, reason);
  }

  /**
   * Fold one latency sample into the lane's EWMA (weight 1/8). A CAS loop so that two workers'
   * samples both count; stored as microseconds + 1 so the zeroed word means "no sample".
   */
  recordLatency(lane: number, latencyMs: number): void {
    const sampleUs = Math.min(INT32_COUNT_MAX - 1, Math.max(0, Math.round(latencyMs * 1000)));
    const at = lane + LANE_LATENCY_EWMA_US;
    const i32 = this.i32(lane);
    let raw = Atomics.load(i32, at);
    for (;;) {
      const next = raw === 0 ? sampleUs + 1 : Math.round(raw - 1 + (sampleUs - (raw - 1)) / 8) + 1;
      const seen = Atomics.compareExchange(i32, at, raw, next);
      if (seen === raw) return;
      raw = seen;
    }
  }

  /** Latency EWMA in ms, or null before the first sample. */
  latencyEwmaMs(lane: number): number | null {
    const raw = Atomics.load(this.i32(lane), lane + LANE_LATENCY_EWMA_US);
    return raw === 0 ? null : (raw - 1) / 1000;
  }

  // ---- views (shared-views.ts): one check covers every word before the holder shadows ----

  private i32(lane: number): Int32Array {
    return this.views.i32For(lane + LANE_HOLDERS - 1);
  }

  private u32(lane: number): Uint32Array {
    return this.views.u32For(lane + LANE_HOLDERS - 1);
  }
}
