// A governance bucket's `concurrent` limit: requests in flight under that bucket on this
// instance. Same permit discipline as lanes (CAS to never exceed, shadows to reclaim a dead
// worker's share). Not windowed: a window roll does not touch requests still in flight.
import { CONCURRENCY_HOLDERS } from './layout.js';
import { permitsAvailable, permitsHeldBy, permitsInflight, reclaimPermits, releasePermit, tryAcquirePermit } from './permit-block.js';
import type { SharedViews } from './shared-views.js';

export class ConcurrencyGauges {
  private readonly holderAt: number;

  constructor(
    private readonly views: SharedViews,
    holderId: number,
  ) {
    this.holderAt = CONCURRENCY_HOLDERS + holderId;
  }

  /** Admit one more request if fewer than `max` are in flight (0 = unbounded, counted). */
  tryAcquire(slot: number, max: number): boolean {
    return tryAcquirePermit(this.views, slot, this.holderAt, max);
  }

  /** End one request this thread admitted; throws SharedInvariantError if it holds none. */
  release(slot: number): void {
    releasePermit(this.views, slot, this.holderAt, 'concurrency slot');
  }

  inflight(slot: number): number {
    return permitsInflight(this.views, slot);
  }

  available(slot: number, max: number): number {
    return permitsAvailable(this.views, slot, max);
  }

  heldByThisThread(slot: number): number {
    return permitsHeldBy(this.views, slot, this.holderAt);
  }

  /** Main thread only, after holder `holderId` exited: free what it held. */
  reclaimHolder(slot: number, holderId: number): number {
    return reclaimPermits(this.views, slot, CONCURRENCY_HOLDERS + holderId);
  }
}
