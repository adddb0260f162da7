// The worker's view of lane capacity over shared memory: concurrency permits (lane-global,
// across pools and workers), the `max_requests` lifetime budget, ok/err tallies and the
// latency EWMA. Thin on purpose: the atomic discipline lives in src/shared/sab.
import type { CompiledLane } from '../shared/config/compiled.js';
import type { SharedState } from '../shared/sab/index.js';

export class LaneGauges {
  /** `shared`: the worker's one attached SharedState (its holder id owns the permits taken here). */
  constructor(private readonly shared: SharedState) {}

  /** Take a permit, then a unit of the lifetime budget; false (and nothing held) when either is gone. */
  tryAcquire(lane: CompiledLane): boolean {
    if (!this.shared.lanes.tryAcquirePermit(lane.slot, lane.maxConcurrent)) return false;
    if (lane.maxRequests !== 0 && !this.shared.lanes.tryTakeLifetimeRequest(lane.slot, lane.maxRequests)) {
      this.shared.lanes.releasePermit(lane.slot);
      return false;
    }
    return true;
  }

  /** Give the permit back. */
  release(lane: CompiledLane): void {
    this.shared.lanes.releasePermit(lane.slot);
  }

  /** Count one attempt outcome in the lane's ok or err tally (neutral outcomes count in neither). */
  tally(lane: CompiledLane, ok: boolean): void {
    this.shared.lanes.recordOutcome(lane.slot, ok);
  }

  /** A successful attempt's time to the response head. */
  latency(lane: CompiledLane, latencyMs: number): void {
    this.shared.lanes.recordLatency(lane.slot, latencyMs);
  }
}
