// A monotonic counter that outgrows 32 bits without BigInt (whose atomics allocate a heap
// number per call) and without a lock. Two Uint32 words: `lo` takes every add; each time an
// add carries lo across 2^31, that one adder moves 2^31 into `hi` in three atomic steps:
//   1. hi += 1  (hi becomes odd: "a unit is being moved; lo's top bit still holds it")
//   2. lo -= 2^31
//   3. hi += 1  (hi even again, one unit = 2^31 higher)
// With E = hi >>> 1 the value is E * 2^31 + lo when hi is even, and
// (E + 1) * 2^31 + (lo & 0x7fffffff) when hi is odd: both formulas hold before and after
// step 2, so a reader needs only hi, lo, hi again (retrying if hi moved) and never waits for
// a writer. The one assumption: less than 2^31 more is added while a single carry is in
// flight (three instructions); adds are capped at 2^24 each, and a wrap is detected, counted
// as a fault and thrown rather than silently losing 2^32.
import { SharedInvariantError } from './faults.js';
import type { SharedViews } from './shared-views.js';

const UNIT = 0x80000000;
const LO_MAX = 0xffffffff;
/** Larger adds are split into chunks of this size. */
export const WIDE_DELTA_MAX = 1 << 24;

/** Add a non-negative integer to the wide counter whose lo word is `at`. */
export function wideAdd(views: SharedViews, at: number, delta: number): void {
  // The common add (a count of 1, a token count) is one chunk: an int32 check instead of
  // isSafeInteger and the chunk loop.
  if ((delta | 0) === delta && delta > 0 && delta <= WIDE_DELTA_MAX) {
    addChunk(views, at, delta);
    return;
  }
  if (!(delta >= 0 && Number.isSafeInteger(delta))) throw new RangeError(`counter increment must be a non-negative integer, got ${delta}`);
  while (delta > WIDE_DELTA_MAX) {
    addChunk(views, at, WIDE_DELTA_MAX);
    delta -= WIDE_DELTA_MAX;
  }
  if (delta > 0) addChunk(views, at, delta);
}

function addChunk(views: SharedViews, at: number, delta: number): void {
  const u32 = views.u32For(at + 1);
  const old = Atomics.add(u32, at, delta);
  const sum = old + delta;
  if (sum < UNIT || old >= UNIT) {
    if (sum > LO_MAX) {
      views.fault();
      throw new SharedInvariantError(`wide counter at word ${at} wrapped: over 2^31 was added while a carry was in flight`);
    }
    return;
  }
  // This add took lo across 2^31, so this caller alone moves the unit (see the header).
  Atomics.add(u32, at + 1, 1);
  Atomics.sub(u32, at, UNIT);
  Atomics.add(u32, at + 1, 1);
}

/** The counter's value; exact up to 2^53. Never blocks: retries only if a carry finished. */
export function wideRead(u32: Uint32Array, at: number): number {
  for (;;) {
    const hi = Atomics.load(u32, at + 1);
    const lo = Atomics.load(u32, at);
    if (Atomics.load(u32, at + 1) !== hi) continue;
    const units = hi >>> 1;
    return (hi & 1) === 0 ? units * UNIT + lo : (units + 1) * UNIT + (lo & 0x7fffffff);
  }
}
