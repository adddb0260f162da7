// The typed views over the one buffer, made once per thread. None has a length, so each
// tracks the buffer as the main thread grows it. All alias the same bytes: Int32 for signed
// words and CAS, Uint32 for unsigned words and wide counters, BigInt64 for money and other
// values past 2^53, Float64 for values written once before publication (never raced).
import type { GrowableSharedArrayBuffer } from './growable-buffer.js';
import { HEADER_FAULTS, HEADER_HOLDERS, HEADER_TIME_BASE_MS } from './layout.js';

export class SharedViews {
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
  readonly i64: BigInt64Array;
  readonly f64: Float64Array;
  /** Permit holders per record (main + workers), read from the header. */
  readonly holders: number;
  /** Ms epoch the cooldown ticks count from (header; written once before any worker runs). */
  readonly timeBaseMs: number;

  constructor(readonly buffer: GrowableSharedArrayBuffer) {
    this.i32 = new Int32Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.i64 = new BigInt64Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.holders = Atomics.load(this.i32, HEADER_HOLDERS);
    this.timeBaseMs = this.f64[HEADER_TIME_BASE_MS >> 1]!;
  }

  /** Count a detected invariant violation where every thread (and /metrics) can see it. */
  fault(): void {
    Atomics.add(this.i32, HEADER_FAULTS, 1);
  }
}
