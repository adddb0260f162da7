// Outstanding words: what the requests in flight reserved under one governance limit (tokens or
// micros), per window (layout.ts, "outstanding word"). Admission checks `used + outstanding +
// its own reservation <= max`, where `used` is read from other words (tokens counted, or the
// window's priced spend), and then CASes this word; settle first adds what was used to those
// words and then gives the reservation back here. Two rules make that exact across threads:
// - a check reads this word BEFORE `used` (look), and its CAS (commit) compares against that
//   very reading. A settle that ran in between has either not given back yet (the check saw
//   its reservation, and perhaps its usage too: over-counted, never under), or given back,
//   which changed this word, so the CAS fails and the check is made again;
// - every write bumps the word's 8-bit version, so a give-back followed by a reservation of
//   the same size (identical requests do exactly that) still changes the word and fails a
//   stale CAS (ABA). 256 writes between one thread's look and its commit would be needed to
//   fool it.
// A reservation or give-back that stays within the low 24 bits of the count is one 32-bit CAS
// on the low half; a window roll, a carry or a borrow takes the 64-bit CAS (a BigInt, rare).
import { OUTSTANDING_LO_COUNT_BITS, OUTSTANDING_LO_COUNT_MASK, OUTSTANDING_MAX } from './layout.js';
import { windowTagLater } from './governance-counters.js';
import type { SharedViews } from './shared-views.js';

const TWO_24 = 2 ** OUTSTANDING_LO_COUNT_BITS;
const LO_VERSION_SHIFT = OUTSTANDING_LO_COUNT_BITS;

export class ReservedWords {
  /** What the last look() saw: the raw halves, and decoded. Read right after look(), on the
   * same thread, before anything else looks (single-threaded JS: no interleaving). */
  seenHi = 0;
  seenLo = 0;
  seenTag = 0;
  seenCount = 0;

  constructor(private readonly views: SharedViews) {}

  /** Read the word at value index `index` as one consistent pair of halves (seqlock on hi). */
  look(index: number): void {
    const lo = index << 1;
    const u32 = this.views.u32For(lo + 1);
    for (;;) {
      // Plain loads, validated by the atomic re-load of hi (as GovernanceCounters.read does).
      const hi = u32[lo + 1]!;
      const low = u32[lo]!;
      if (Atomics.load(u32, lo + 1) !== hi) continue;
      this.seenHi = hi;
      this.seenLo = low;
      this.seenTag = hi >>> 16;
      this.seenCount = (hi & 0xffff) * TWO_24 + (low & OUTSTANDING_LO_COUNT_MASK);
      return;
    }
  }

  /** The outstanding count under window `tag` (0 when the word holds another window). */
  read(index: number, tag: number): number {
    this.look(index);
    return this.seenTag === tag ? this.seenCount : 0;
  }

  /**
   * Replace what look() saw by `count` under `tag`, if nothing wrote the word since: true when
   * it did. `count` must be at most OUTSTANDING_MAX.
   */
  commit(index: number, tag: number, count: number): boolean {
    const lo = index << 1;
    const u32 = this.views.u32For(lo + 1);
    const version = (((this.seenLo >>> LO_VERSION_SHIFT) + 1) & 0xff) << LO_VERSION_SHIFT;
    const hiCount = Math.floor(count / TWO_24);
    const loCount = count - hiCount * TWO_24;
    const nextLo = (version | loCount) >>> 0;
    const nextHi = ((tag << 16) | hiCount) >>> 0;
    if (nextHi === this.seenHi) {
      // Same window, no carry: the low half alone. Every write changes the low half (the
      // version), so an unchanged low half means the high half is the one look() saw too.
      return Atomics.compareExchange(u32, lo, this.seenLo, nextLo) === this.seenLo;
    }
    const expected = (BigInt(this.seenHi) << 32n) | BigInt(this.seenLo);
    const next = (BigInt(nextHi) << 32n) | BigInt(nextLo);
    return Atomics.compareExchange(this.views.u64For(index), index, expected, next) === expected;
  }

  /**
   * Reserve `amount` under `tag` with no limit (false: the word is in a later window, or would
   * pass OUTSTANDING_MAX). Admission's checked reservation uses look() and commit() itself, as
   * it reads other words between them.
   */
  add(index: number, tag: number, amount: number): boolean {
    for (;;) {
      this.look(index);
      const count = this.seenTag === tag ? this.seenCount : 0;
      if (windowTagLater(this.seenTag, tag)) return false;
      if (count + amount > OUTSTANDING_MAX) return false;
      if (this.commit(index, tag, count + amount)) return true;
    }
  }

  /** Give back `amount` reserved under `tag`; dropped when the word has left that window. */
  release(index: number, tag: number, amount: number): void {
    if (amount <= 0) return;
    for (;;) {
      this.look(index);
      if (this.seenTag !== tag) return;
      const count = this.seenCount;
      if (this.commit(index, tag, count > amount ? count - amount : 0)) return;
    }
  }

  /**
   * Main, fleet reconciliation: move the count under `tag` by `amount` (another node's change):
   * the same window adds (never below 0), an older stored window starts over at `amount`; a
   * newer stored window is left alone (false).
   */
  inject(index: number, tag: number, amount: number): boolean {
    for (;;) {
      this.look(index);
      let next: number;
      if (this.seenTag === tag) next = this.seenCount + amount;
      else if (windowTagLater(tag, this.seenTag) || (this.seenHi === 0 && this.seenLo === 0)) next = amount;
      else return false;
      if (this.commit(index, tag, Math.min(OUTSTANDING_MAX, Math.max(0, next)))) return true;
    }
  }

  /** The raw word's count, whatever its window (fleet reconciliation reads tag and count). */
  countAt(index: number): number {
    this.look(index);
    return this.seenCount;
  }

  tagAt(index: number): number {
    this.look(index);
    return this.seenTag;
  }
}
