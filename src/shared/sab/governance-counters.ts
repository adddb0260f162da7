// Governance counters of one bucket (a group's or key's limits in one window: requests,
// tokens, spend). BigInt64 because a month of tokens or micro-units of money can pass 2^53
// (V8 boxes each BigInt an atomic returns: the one allocation in this module, and only here).
// `slot` is SlotRegistry.governanceSlot(bucketId).
//
// The window rolls by CAS on its start word, so exactly one thread zeroes the values for a
// new window. Adds racing with the roll may land on either side of it: a boundary blur of
// the requests in flight at that instant, never a lost or doubled window.
import { GOV_FIELD_COUNT, GOV_VALUES, GOV_WINDOW_START_SEC } from './layout.js';
import type { SharedViews } from './shared-views.js';

export class GovernanceCounters {
  private readonly u32: Uint32Array;
  private readonly i64: BigInt64Array;

  constructor(views: SharedViews) {
    this.u32 = views.u32;
    this.i64 = views.i64;
  }

  /** Epoch seconds the current window started; 0 = never started. */
  windowStartSec(slot: number): number {
    return Atomics.load(this.u32, slot + GOV_WINDOW_START_SEC);
  }

  /**
   * Start a new window if the bucket is still in `expectedStartSec`; true for the one thread
   * that did it (and zeroed requests, tokens and spend). False: someone else rolled first.
   */
  tryRollWindow(slot: number, expectedStartSec: number, nextStartSec: number): boolean {
    if (nextStartSec >>> 0 !== nextStartSec) throw new RangeError(`window start must be a uint32 epoch second, got ${nextStartSec}`);
    if (Atomics.compareExchange(this.u32, slot + GOV_WINDOW_START_SEC, expectedStartSec, nextStartSec) !== expectedStartSec) return false;
    const base = (slot + GOV_VALUES) >> 1;
    for (let field = 0; field < GOV_FIELD_COUNT; field++) Atomics.store(this.i64, base + field, 0n);
    return true;
  }

  /** GOV_REQUESTS, GOV_TOKENS or GOV_SPEND_MICROS. */
  read(slot: number, field: number): bigint {
    return Atomics.load(this.i64, this.index(slot, field));
  }

  /** Unconditional add (negative to refund a reservation another limit refused). */
  add(slot: number, field: number, delta: bigint): void {
    Atomics.add(this.i64, this.index(slot, field), delta);
  }

  /**
   * Add `delta` only if the result stays at or under `max`; false leaves the value alone.
   * A CAS loop so that racing admissions can never jointly pass the limit.
   */
  tryAdd(slot: number, field: number, delta: bigint, max: bigint): boolean {
    const i64 = this.i64;
    const at = this.index(slot, field);
    let current = Atomics.load(i64, at);
    for (;;) {
      const next = current + delta;
      if (next > max) return false;
      const seen = Atomics.compareExchange(i64, at, current, next);
      if (seen === current) return true;
      current = seen;
    }
  }

  /** Overwrite a value (main thread restoring a window from the store). */
  set(slot: number, field: number, value: bigint): void {
    Atomics.store(this.i64, this.index(slot, field), value);
  }

  private index(slot: number, field: number): number {
    if (!(field >= 0 && field < GOV_FIELD_COUNT)) throw new RangeError(`unknown governance field ${field}`);
    return ((slot + GOV_VALUES) >> 1) + field;
  }
}
