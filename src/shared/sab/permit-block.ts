// A bounded in-flight count shared by every thread, with one shadow word per holder saying
// how many of the permits that holder has. Used by lane records (lane concurrency) and
// concurrency records (a governance bucket's `concurrent` limit).
//
// Order of operations keeps `inflight >= sum of shadows` at every instant: acquire raises
// inflight first and the shadow second; release lowers the shadow first and inflight second.
// So a release can never drive inflight negative, and when a worker dies the main thread can
// hand back exactly what it held (reclaim) without guessing.
import { SharedInvariantError } from './faults.js';
import { INT32_COUNT_MAX, PERMIT_INFLIGHT } from './layout.js';
import type { SharedViews } from './shared-views.js';

/**
 * Take one permit if fewer than `max` are held; `max` 0 = unbounded (still counted).
 * Bounded: a CAS loop, because load-check-add would let two threads both see max - 1 and
 * both take the last permit. A failed CAS means another thread changed the count, so the
 * loop always makes progress (lock-free) and re-checks the limit with the fresh value.
 */
export function tryAcquirePermit(views: SharedViews, slot: number, holderAt: number, max: number): boolean {
  const at = slot + PERMIT_INFLIGHT;
  // The shadow word is the record's last one we touch: one check covers both.
  const i32 = views.i32For(slot + holderAt);
  if (max === 0) {
    Atomics.add(i32, at, 1);
  } else {
    if (!(max > 0 && max <= INT32_COUNT_MAX)) throw new RangeError(`permit limit must be 0..${INT32_COUNT_MAX}, got ${max}`);
    let current = Atomics.load(i32, at);
    for (;;) {
      if (current >= max) return false;
      const seen = Atomics.compareExchange(i32, at, current, current + 1);
      if (seen === current) break;
      current = seen;
    }
  }
  // Only this holder writes its shadow, but main reads it (reclaim), so it is atomic too.
  Atomics.add(i32, slot + holderAt, 1);
  return true;
}

/** Give back one permit this holder took. Releasing one it does not hold is a bug: counted
 * as a fault and thrown, and nothing is changed. */
export function releasePermit(views: SharedViews, slot: number, holderAt: number, what: string): void {
  const shadow = slot + holderAt;
  const i32 = views.i32For(shadow);
  const held = Atomics.load(i32, shadow);
  if (held <= 0) {
    views.fault();
    throw new SharedInvariantError(`${what} released without a permit held by this thread (slot ${slot})`);
  }
  Atomics.store(i32, shadow, held - 1);
  Atomics.sub(i32, slot + PERMIT_INFLIGHT, 1);
}

/** Main thread, after a holder's thread has exited: return every permit it still held. */
export function reclaimPermits(views: SharedViews, slot: number, holderAt: number): number {
  const i32 = views.i32For(slot + holderAt);
  const held = Atomics.exchange(i32, slot + holderAt, 0);
  if (held > 0) Atomics.sub(i32, slot + PERMIT_INFLIGHT, held);
  return held;
}

export function permitsInflight(views: SharedViews, slot: number): number {
  const at = slot + PERMIT_INFLIGHT;
  return Atomics.load(views.i32For(at), at);
}

export function permitsHeldBy(views: SharedViews, slot: number, holderAt: number): number {
  const at = slot + holderAt;
  return Atomics.load(views.i32For(at), at);
}

/** Free permits under `max`; Infinity when unbounded (max 0). */
export function permitsAvailable(views: SharedViews, slot: number, max: number): number {
  if (max === 0) return Infinity;
  const at = slot + PERMIT_INFLIGHT;
  const free = max - Atomics.load(views.i32For(at), at);
  return Math.max(free, 0);
}
