// The worker's view of lane capacity over shared memory: concurrency permits (lane-global,
// across pools and workers), the `max_requests` lifetime budget, and ok/err tallies. Thin on
// purpose: the atomic discipline lives in src/shared/sab.
import type { CompiledLane } from '../shared/config/compiled.js';
import type { SharedState } from '../shared/sab/index.js';

export class LaneGauges {
  /** `shared`: the worker's one attached SharedState (its holder id owns the permits taken here). */
  constructor(private readonly shared: SharedState) {}

  /** A permit could be taken now (a hint for picking; tryAcquire decides). */
  hasFreePermit(lane: CompiledLane): boolean {
    if (lane.maxConcurrent !== 0 && this.shared.lanes.availablePermits(lane.slot, lane.maxConcurrent) <= 0) return false;
    return lane.maxRequests === 0 || this.shared.lanes.lifetimeRemaining(lane.slot, lane.maxRequests) > 0;
  }

  /** Whether the lane could serve a request (GET /healthz asks this of every lane). */
  usable(lane: CompiledLane): boolean {
    return this.hasFreePermit(lane);
  }

  /** Take a permit, then a unit of the lifetime budget; false (and nothing held) when either is gone. */
  tryAcquire(lane: CompiledLane): boolean {
    if (!this.shared.lanes.tryAcquirePermit(lane.slot, lane.maxConcurrent)) return false;
    if (lane.maxRequests !== 0 && !this.shared.lanes.tryTakeLifetimeRequest(lane.slot, lane.maxRequests)) {
      this.shared.lanes.releasePermit(lane.slot);
      return false;
    }
    return true;
  }

  /** Give the permit back and count the outcome. */
  release(lane: CompiledLane, ok: boolean): void {
    this.shared.lanes.releasePermit(lane.slot);
    this.shared.lanes.recordOutcome(lane.slot, ok);
  }
}
