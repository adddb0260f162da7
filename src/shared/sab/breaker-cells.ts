// Breaker cells: one per (pool, lane) and one lane-default cell per lane. These are the
// atomic primitives only; when to trip, how long to cool down and what a probe result means
// is the routing policy's job. `cell` is a slot from the SlotRegistry.
//
// Which operations must be CAS, and why:
// - casState: Closed->Open must count one trip however many workers see the failure that
//   tips it; Open->HalfOpen must let exactly one selector through. Only the thread whose CAS
//   succeeds does the side effects (incrementTripCount, setLastTripSec, metrics).
// - tryClaimProbe: the HalfOpen probe is single-flight across all workers.
// - extendCooldownUntil: two failures racing must leave the later deadline, not the last
//   writer's.
// - errorWindowAdd: the count and the second it belongs to share one word, so moving a ring
//   position to a new second and counting in it is one CAS (no lost or misfiled outcome).
// The rest (streak, trip count, last trip, plain cooldown set) are single atomic stores or
// adds: a counter has no limit to protect, and a store is whole.
//
// Publish side fields before the state word: write the cooldown, then casState(CLOSED, OPEN).
// A thread that sees OPEN must never find the previous, already expired cooldown, or it
// would move to HalfOpen at once.
import { SharedInvariantError } from './faults.js';
import {
  BREAKER_OPEN,
  CELL_COOLDOWN,
  CELL_HARD_DOWN,
  CELL_LAST_TRIP_SEC,
  CELL_OPEN_STREAK,
  CELL_PROBE,
  CELL_RECORD_WORDS,
  CELL_STATE,
  CELL_STREAK,
  CELL_TRIP_COUNT,
  CELL_WINDOW,
  CELL_WINDOW_LAST_SEC,
  COOLDOWN_BIAS,
  COOLDOWN_NONE,
  COOLDOWN_TICK_MS,
  ERROR_WINDOW_COUNT_MAX,
  ERROR_WINDOW_SHIFT,
  ERROR_WINDOW_SLOTS,
} from './layout.js';
import type { SharedViews } from './shared-views.js';

const WINDOW_MASK = ERROR_WINDOW_SLOTS - 1;
const LAP_MASK = 0xffff;
const TICKS_LIMIT = 0x80000000;

/** Caller-owned result of readErrorWindow, reused so that reading allocates nothing. */
export class ErrorWindowCounts {
  ok = 0;
  err = 0;
}

export class BreakerCells {
  private readonly probeMark: number;
  private readonly timeBaseMs: number;

  constructor(
    private readonly views: SharedViews,
    holderId: number,
  ) {
    this.probeMark = holderId + 1;
    this.timeBaseMs = views.timeBaseMs;
  }

  // ---- state -----------------------------------------------------------------------------

  /** BREAKER_CLOSED, BREAKER_HALF_OPEN or BREAKER_OPEN. */
  state(cell: number): number {
    return Atomics.load(this.i32(cell), cell + CELL_STATE);
  }

  /** Move from `from` to `to` only if the cell is still in `from`; true for the one winner. */
  casState(cell: number, from: number, to: number): boolean {
    if (!(to >= 0 && to <= BREAKER_OPEN)) throw new RangeError(`unknown breaker state ${to}`);
    return Atomics.compareExchange(this.i32(cell), cell + CELL_STATE, from, to) === from;
  }

  // ---- consecutive-failure streak ----------------------------------------------------------

  streak(cell: number): number {
    return Atomics.load(this.i32(cell), cell + CELL_STREAK);
  }

  /** Add one failure; returns the new streak (each caller sees a distinct value). */
  incrementStreak(cell: number): number {
    return Atomics.add(this.i32(cell), cell + CELL_STREAK, 1) + 1;
  }

  resetStreak(cell: number): void {
    Atomics.store(this.i32(cell), cell + CELL_STREAK, 0);
  }

  // ---- opens since the last close (the cooldown's doubling step) --------------------------

  openStreak(cell: number): number {
    return Atomics.load(this.i32(cell), cell + CELL_OPEN_STREAK);
  }

  /** Count one open (a trip or a failed probe); call only after winning the state CAS. */
  incrementOpenStreak(cell: number): number {
    return Atomics.add(this.i32(cell), cell + CELL_OPEN_STREAK, 1) + 1;
  }

  resetOpenStreak(cell: number): void {
    Atomics.store(this.i32(cell), cell + CELL_OPEN_STREAK, 0);
  }

  // ---- hard-down reason of the current open ---------------------------------------------

  /** CELL_HARD_DOWN_NONE, _BILLING or _AUTH. */
  hardDown(cell: number): number {
    return Atomics.load(this.i32(cell), cell + CELL_HARD_DOWN);
  }

  setHardDown(cell: number, reason: number): void {
    Atomics.store(this.i32(cell), cell + CELL_HARD_DOWN, reason);
  }

  // ---- single-flight HalfOpen probe -------------------------------------------------------

  /** Claim the one probe; false if any thread (this one included) already holds it. */
  tryClaimProbe(cell: number): boolean {
    return Atomics.compareExchange(this.i32(cell), cell + CELL_PROBE, 0, this.probeMark) === 0;
  }

  /** Give back the probe this thread claimed; throws SharedInvariantError otherwise. */
  releaseProbe(cell: number): void {
    const seen = Atomics.compareExchange(this.i32(cell), cell + CELL_PROBE, this.probeMark, 0);
    if (seen !== this.probeMark) {
      this.views.fault();
      throw new SharedInvariantError(`probe released by a thread that does not hold it (cell ${cell}, held by holder ${seen - 1})`);
    }
  }

  probeInFlight(cell: number): boolean {
    return Atomics.load(this.i32(cell), cell + CELL_PROBE) !== 0;
  }

  /** Holder id of the probe's owner, or -1. */
  probeHolder(cell: number): number {
    return Atomics.load(this.i32(cell), cell + CELL_PROBE) - 1;
  }

  /** Main thread only, after holder `holderId` exited: drop a probe it held. */
  reclaimProbe(cell: number, holderId: number): boolean {
    return Atomics.compareExchange(this.i32(cell), cell + CELL_PROBE, holderId + 1, 0) === holderId + 1;
  }

  // ---- cooldown (ms epoch in, ms epoch out; stored in 100 ms ticks, rounded up) -----------

  /** The cooldown deadline in ms epoch, or 0 when none is set. */
  cooldownUntilMs(cell: number): number {
    return this.fromRaw(Atomics.load(this.u32(cell), cell + CELL_COOLDOWN));
  }

  /** Ms left until the deadline (0 when none or passed). */
  cooldownRemainingMs(cell: number, nowMs: number): number {
    const raw = Atomics.load(this.u32(cell), cell + CELL_COOLDOWN);
    if (raw === COOLDOWN_NONE) return 0;
    const left = this.fromRaw(raw) - nowMs;
    return Math.max(left, 0);
  }

  /** Overwrite the deadline (0 clears it). Rounded up to the next 100 ms tick. */
  setCooldownUntil(cell: number, untilMs: number): void {
    Atomics.store(this.u32(cell), cell + CELL_COOLDOWN, this.toRaw(untilMs));
  }

  clearCooldown(cell: number): void {
    Atomics.store(this.u32(cell), cell + CELL_COOLDOWN, COOLDOWN_NONE);
  }

  /** Set the deadline to `untilMs` unless a later one is already set (CAS loop); returns the
   * deadline now in force. */
  extendCooldownUntil(cell: number, untilMs: number): number {
    const raw = this.toRaw(untilMs);
    const at = cell + CELL_COOLDOWN;
    const u32 = this.u32(cell);
    let current = Atomics.load(u32, at);
    for (;;) {
      if (current !== COOLDOWN_NONE && current >= raw) return this.fromRaw(current);
      const seen = Atomics.compareExchange(u32, at, current, raw);
      if (seen === current) return this.fromRaw(raw);
      current = seen;
    }
  }

  // ---- trips -----------------------------------------------------------------------------

  tripCount(cell: number): number {
    return Atomics.load(this.u32(cell), cell + CELL_TRIP_COUNT);
  }

  /** Count one Closed-to-Open trip (call only after winning casState); returns the new count. */
  incrementTripCount(cell: number): number {
    return (Atomics.add(this.u32(cell), cell + CELL_TRIP_COUNT, 1) + 1) >>> 0;
  }

  /** Restore the count (main thread, e.g. from the store at boot). */
  setTripCount(cell: number, count: number): void {
    Atomics.store(this.u32(cell), cell + CELL_TRIP_COUNT, checkUint32(count, 'trip count'));
  }

  /** Epoch seconds of the last trip; 0 = never. */
  lastTripSec(cell: number): number {
    return Atomics.load(this.u32(cell), cell + CELL_LAST_TRIP_SEC);
  }

  setLastTripSec(cell: number, epochSec: number): void {
    Atomics.store(this.u32(cell), cell + CELL_LAST_TRIP_SEC, checkUint32(epochSec, 'last trip second'));
  }

  // ---- error window: per-second ok/err counts for the error-rate trip ----------------------

  /**
   * Count one outcome in second `nowSec` (epoch seconds). Each ring position holds an ok and
   * an err word of (lap << 16) | count, lap = nowSec / 128 mod 2^16: a word still tagged with
   * an older lap is stale and is restarted at 1 by the same CAS that counts. A count stops at
   * 65535 per second. An outcome older than the ring (a thread that stalled 128 s) is dropped.
   */
  errorWindowAdd(cell: number, ok: boolean, nowSec: number): void {
    if (nowSec >>> 0 !== nowSec) throw new RangeError(`error window second must be a uint32 epoch second, got ${nowSec}`);
    const u32 = this.u32(cell);
    const lastAt = cell + CELL_WINDOW_LAST_SEC;
    // Raise the newest-second mark (CAS max) so readers can tell a live ring from an idle one.
    let last = Atomics.load(u32, lastAt);
    while (nowSec > last) {
      const seen = Atomics.compareExchange(u32, lastAt, last, nowSec);
      if (seen === last) last = nowSec;
      else last = seen;
    }
    if (nowSec + ERROR_WINDOW_SLOTS <= last) return;
    const at = cell + CELL_WINDOW + 2 * (nowSec & WINDOW_MASK) + (ok ? 0 : 1);
    const lap = (nowSec >>> ERROR_WINDOW_SHIFT) & LAP_MASK;
    let word = Atomics.load(u32, at);
    for (;;) {
      let next: number;
      if (word >>> 16 === lap) {
        if ((word & LAP_MASK) === ERROR_WINDOW_COUNT_MAX) return;
        next = word + 1;
      } else {
        next = ((lap << 16) | 1) >>> 0;
      }
      const seen = Atomics.compareExchange(u32, at, word, next);
      if (seen === word) return;
      word = seen;
    }
  }

  /** Sum the outcomes of the last `windowSecs` seconds ending at `nowSec` into `out`. */
  readErrorWindow(cell: number, nowSec: number, windowSecs: number, out: ErrorWindowCounts): void {
    if (!(windowSecs >= 1 && windowSecs <= ERROR_WINDOW_SLOTS && Number.isInteger(windowSecs))) {
      throw new RangeError(`error window must be 1..${ERROR_WINDOW_SLOTS} seconds, got ${windowSecs}`);
    }
    if (nowSec >>> 0 !== nowSec) throw new RangeError(`error window second must be a uint32 epoch second, got ${nowSec}`);
    const u32 = this.u32(cell);
    let ok = 0;
    let err = 0;
    const last = Atomics.load(u32, cell + CELL_WINDOW_LAST_SEC);
    // Nothing recorded within the ring's span: every position is stale, whatever its tag.
    if (last !== 0 && nowSec - last < ERROR_WINDOW_SLOTS) {
      for (let sec = nowSec - windowSecs + 1; sec <= nowSec; sec++) {
        const lap = (sec >>> ERROR_WINDOW_SHIFT) & LAP_MASK;
        const at = cell + CELL_WINDOW + 2 * (sec & WINDOW_MASK);
        const okWord = Atomics.load(u32, at);
        if (okWord >>> 16 === lap) ok += okWord & LAP_MASK;
        const errWord = Atomics.load(u32, at + 1);
        if (errWord >>> 16 === lap) err += errWord & LAP_MASK;
      }
    }
    out.ok = ok;
    out.err = err;
  }

  /** Forget every outcome (a probe succeeded). Outcomes racing with the clear may survive. */
  clearErrorWindow(cell: number): void {
    const u32 = this.u32(cell);
    const end = cell + CELL_WINDOW + 2 * ERROR_WINDOW_SLOTS;
    for (let at = cell + CELL_WINDOW; at < end; at++) Atomics.store(u32, at, 0);
  }

  // ---- views (shared-views.ts): one check covers the whole record -----------------------

  private i32(cell: number): Int32Array {
    return this.views.i32For(cell + CELL_RECORD_WORDS - 1);
  }

  private u32(cell: number): Uint32Array {
    return this.views.u32For(cell + CELL_RECORD_WORDS - 1);
  }

  // ---- tick encoding -----------------------------------------------------------------------

  private toRaw(untilMs: number): number {
    if (untilMs === 0) return COOLDOWN_NONE;
    const ticks = Math.ceil((untilMs - this.timeBaseMs) / COOLDOWN_TICK_MS);
    if (!(ticks > -TICKS_LIMIT && ticks < TICKS_LIMIT)) {
      throw new RangeError(`cooldown deadline ${untilMs} is outside the representable range around the time base ${this.timeBaseMs}`);
    }
    return ticks + COOLDOWN_BIAS;
  }

  private fromRaw(raw: number): number {
    if (raw === COOLDOWN_NONE) return 0;
    return this.timeBaseMs + (raw - COOLDOWN_BIAS) * COOLDOWN_TICK_MS;
  }
}

function checkUint32(value: number, what: string): number {
  if (value >>> 0 !== value) throw new RangeError(`${what} must be a uint32, got ${value}`);
  return value;
}
