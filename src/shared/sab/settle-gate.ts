// The settle gate: lets main take a flush cut at which the governance counters in shared memory
// and the usage rows the workers meter hold exactly the same requests, so what the store has
// after a crash (the last cut's counters and its usage, written together) agrees with itself.
//
// A worker's settle updates the counters and meters the request's usage row in one synchronous
// step, inside the gate: it raises its own "settling" flag, then looks at the pause word; paused,
// it lowers the flag and defers the settle (run right after the cut). Main raises the pause word,
// then waits until no worker's flag is up (a settle takes microseconds; the wait is bounded),
// bumps the flush epoch, snapshots the counters, and lowers the pause word. Flag-then-pause on
// one side and pause-then-flag on the other (all seq-cst atomics): a settle either saw the pause
// (deferred) or main saw its flag (waited for it), so every settle lands wholly before the
// snapshot, with the epoch before the bump, or wholly after it, with the epoch after. Each usage
// row carries its settle's epoch; the cut's usage is every row of an epoch up to the old one.
// Both words are in the header; the flags sit in the reservation journals record, one per holder.
import { HEADER_FLUSH_EPOCH, HEADER_RESERVATIONS, HEADER_SETTLE_PAUSE, JOURNAL_HOLDERS, JOURNAL_SETTLING } from './layout.js';
import type { SharedViews } from './shared-views.js';

export class SettleGate {
  /** This holder's flag word, or -1 when there are no journals (then there are no cuts either). */
  private flag = -2;

  constructor(
    private readonly views: SharedViews,
    private readonly holderId: number,
  ) {}

  /** Worker: enter a settle. False: a cut is being taken, defer the settle (flag left down). */
  enter(): boolean {
    if (this.flag === -2) this.flag = this.flagWord();
    if (this.flag < 0) return true;
    const i32 = this.views.i32For(this.flag);
    Atomics.store(i32, this.flag, 1);
    if (Atomics.load(i32, HEADER_SETTLE_PAUSE) === 0) return true;
    Atomics.store(i32, this.flag, 0);
    return false;
  }

  /** Worker, inside the gate: the epoch this settle's usage belongs to. */
  epoch(): number {
    return Atomics.load(this.views.i32For(HEADER_FLUSH_EPOCH), HEADER_FLUSH_EPOCH);
  }

  /** Worker: the settle is done. */
  leave(): void {
    if (this.flag >= 0) Atomics.store(this.views.i32For(this.flag), this.flag, 0);
  }

  /**
   * Main: pause settles, wait until none is in progress (at most `waitMs`), bump the epoch and
   * run `snapshot` while paused, then resume. Returns the epoch the cut closed (every usage row
   * of an epoch up to it is in the snapshot), or -1 when a settle outlasted the wait (nothing
   * was bumped or run; the next cut tries again).
   */
  cut(waitMs: number, snapshot: () => void, nowMs: () => number = Date.now): number {
    const i32 = this.views.i32For(HEADER_FLUSH_EPOCH);
    Atomics.store(i32, HEADER_SETTLE_PAUSE, 1);
    try {
      const slot = Atomics.load(i32, HEADER_RESERVATIONS);
      if (slot !== 0) {
        const holders = Atomics.load(this.views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_HOLDERS);
        const flags = this.views.i32For(slot + JOURNAL_SETTLING + holders);
        const deadline = nowMs() + waitMs;
        // A bounded spin on main: settles are synchronous and short, so this is mostly zero
        // iterations; a worker stopped inside one (a long GC) makes the cut give up instead.
        for (let h = 0; h < holders; h++) {
          while (Atomics.load(flags, slot + JOURNAL_SETTLING + h) !== 0) {
            if (nowMs() > deadline) return -1;
          }
        }
      }
      const closed = Atomics.add(i32, HEADER_FLUSH_EPOCH, 1);
      snapshot();
      return closed;
    } finally {
      Atomics.store(i32, HEADER_SETTLE_PAUSE, 0);
    }
  }

  private flagWord(): number {
    const slot = Atomics.load(this.views.i32For(HEADER_RESERVATIONS), HEADER_RESERVATIONS);
    if (slot === 0) return -1;
    const holders = Atomics.load(this.views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_HOLDERS);
    return this.holderId < holders ? slot + JOURNAL_SETTLING + this.holderId : -1;
  }
}
