// Settles that arrived while main was taking a flush cut (src/shared/sab/settle-gate.ts): kept
// in arrival order and run as soon as the cut is over, a few milliseconds later. Only a cut
// makes any (a cut pauses settles for the time main takes to snapshot the counters), so the list
// is empty almost always and costs nothing then.
import type { GovernanceLease } from './lease.js';

/** How soon a deferred settle is tried again (a cut lasts about as long as its snapshot). */
const RETRY_MS = 2;

export class DeferredSettles {
  private readonly leases: GovernanceLease[] = [];
  private timer: NodeJS.Timeout | null = null;

  push(lease: GovernanceLease): void {
    this.leases.push(lease);
    this.schedule();
  }

  /** Run what waits, in order, until the gate refuses again. */
  run(): void {
    this.timer = null;
    let done = 0;
    while (done < this.leases.length && this.leases[done]!.retry()) done++;
    if (done > 0) this.leases.splice(0, done);
    if (this.leases.length > 0) this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.run(), RETRY_MS);
    this.timer.unref();
  }
}
