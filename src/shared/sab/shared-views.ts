// The typed views over the one buffer, one set per thread. All alias the same bytes: Int32
// for signed words and CAS, Uint32 for unsigned words and wide counters, BigUint64 for
// governance words past 2^32, Float64 for values written once before publication (never
// raced).
//
// Fixed-length views, not length-tracking ones: V8 runs Atomics on a length-tracking view of
// a growable SharedArrayBuffer through the runtime (2-3x the cost per op; bench/sab-views.ts),
// and a request makes dozens. The buffer only grows and only main grows it, so a fixed view
// stays valid forever; it just stops short of records added later. Growth is never signalled:
// a thread learns of a new slot only after main grew the buffer for it (the config or key
// message that names it), so the first access past the views' end remakes them from the
// buffer's current length. Every accessor goes through xFor(index) for that check (one
// compare; no allocation unless the buffer grew).
import type { GrowableSharedArrayBuffer } from './growable-buffer.js';
import { HEADER_FAULTS, HEADER_HOLDERS, HEADER_TIME_BASE_MS } from './layout.js';

export class SharedViews {
  private i32: Int32Array;
  private u32: Uint32Array;
  private u64: BigUint64Array;
  private f64: Float64Array;
  /** Permit holders per record (main + workers), read from the header. */
  readonly holders: number;
  /** Ms epoch the cooldown ticks count from (header; written once before any worker runs). */
  readonly timeBaseMs: number;

  constructor(readonly buffer: GrowableSharedArrayBuffer) {
    this.i32 = fixedInt32(buffer);
    this.u32 = new Uint32Array(buffer, 0, this.i32.length);
    this.u64 = new BigUint64Array(buffer, 0, this.i32.length >> 1);
    this.f64 = new Float64Array(buffer, 0, this.i32.length >> 1);
    this.holders = Atomics.load(this.i32, HEADER_HOLDERS);
    this.timeBaseMs = this.f64[HEADER_TIME_BASE_MS >> 1]!;
  }

  /** The Int32 view, covering 32-bit word `word`. */
  i32For(word: number): Int32Array {
    if (word >= this.i32.length) this.remake();
    return this.i32;
  }

  /** The Uint32 view, covering 32-bit word `word`. */
  u32For(word: number): Uint32Array {
    if (word >= this.u32.length) this.remake();
    return this.u32;
  }

  /** The BigUint64 view, covering 64-bit element `index` (words 2*index, 2*index + 1). */
  u64For(index: number): BigUint64Array {
    if (index >= this.u64.length) this.remake();
    return this.u64;
  }

  /** The Float64 view, covering 64-bit element `index`. */
  f64For(index: number): Float64Array {
    if (index >= this.f64.length) this.remake();
    return this.f64;
  }

  /** Count a detected invariant violation where every thread (and /metrics) can see it. */
  fault(): void {
    Atomics.add(this.i32, HEADER_FAULTS, 1);
  }

  /** The buffer grew past the views: cover its whole current length. An index still past
   * the end after this is a bug; the caller's Atomics op throws RangeError for it. */
  private remake(): void {
    const buffer = this.buffer;
    const i32 = fixedInt32(buffer);
    if (i32.length === this.i32.length) return;
    this.i32 = i32;
    this.u32 = new Uint32Array(buffer, 0, i32.length);
    this.u64 = new BigUint64Array(buffer, 0, i32.length >> 1);
    this.f64 = new Float64Array(buffer, 0, i32.length >> 1);
  }
}

function fixedInt32(buffer: GrowableSharedArrayBuffer): Int32Array {
  return new Int32Array(buffer, 0, buffer.byteLength >> 2);
}
