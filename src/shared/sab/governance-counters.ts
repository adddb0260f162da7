// Governance counters: one record per key and one per group, each holding all its windows
// (layout.ts, "governance records"). A value word carries its window's 16-bit tag next to the
// count, so:
// - a window rolls by the CAS that first writes the new tag (a stale word reads as 0): no
//   separate zeroing stores that a concurrent reserve could slip between;
// - a reservation remembers the tag it was made under, and a refund with that tag is dropped
//   once the window has moved on, so a late settle never drives a new window negative;
// - a late positive settle (tokens known at stream end) lands in the window in force then.
// BigUint64 words: V8 boxes the BigInt each atomic returns (a small allocation per touch; the
// request path touches a handful of words). Group records also hold the `concurrent` permit
// block (in flight + a shadow per holder, reclaimed like lane permits after a worker dies).
import {
  GOV_GROUP_HOLDERS,
  GOV_GROUP_VALUES,
  GOV_GROUP_VALUE_COUNT,
  GOV_KEY_DIRTY,
  GOV_KEY_VALUES,
  GOV_KEY_VALUE_COUNT,
  GOV_VALUE_BITS,
  GOV_VALUE_MAX,
  govValueIndex,
} from './layout.js';
import { permitsInflight, reclaimPermits, releasePermit, tryAcquirePermit } from './permit-block.js';
import type { SharedViews } from './shared-views.js';

/** Refused by a limit (tryReserve's answer). */
export const GOV_REFUSED = -1;
const TAG_HALF = 0x8000;

function tagOf(word: bigint): number {
  return Number(word >> GOV_VALUE_BITS);
}

function countOf(word: bigint): number {
  return Number(word & GOV_VALUE_MAX);
}

function pack(tag: number, count: number): bigint {
  return (BigInt(tag) << GOV_VALUE_BITS) | BigInt(count);
}

/** True when tag `a` is a later window than `b` (16-bit serial-number arithmetic). */
function newer(a: number, b: number): boolean {
  const d = (a - b) & 0xffff;
  return d !== 0 && d < TAG_HALF;
}

export class GovernanceCounters {
  private readonly u64: BigUint64Array;
  private readonly holderAt: number;

  constructor(
    private readonly views: SharedViews,
    holderId: number,
  ) {
    // No length: the view tracks the growable buffer like the others (shared-views.ts).
    this.u64 = new BigUint64Array(views.buffer);
    this.holderAt = GOV_GROUP_HOLDERS + holderId;
  }

  // ---- values (key and group records alike; `base` says which record kind) ------------------

  /** Key record value `value` (GOV_KEY_*). */
  keyIndex(slot: number, value: number): number {
    if (!(value >= 0 && value < GOV_KEY_VALUE_COUNT)) throw new RangeError(`unknown key counter ${value}`);
    return govValueIndex(slot, GOV_KEY_VALUES, value);
  }

  /** Group record value of window `window` (0..4), metric `metric` (GOV_REQUESTS...). */
  groupIndex(slot: number, window: number, metric: number): number {
    const value = window * 3 + metric;
    if (!(value >= 0 && value < GOV_GROUP_VALUE_COUNT)) throw new RangeError(`unknown group counter ${window}/${metric}`);
    return govValueIndex(slot, GOV_GROUP_VALUES, value);
  }

  /**
   * Add `delta` under window `tag` if the result stays within `max` (negative = unlimited) and
   * the count was under `max` before (so a zero-delta check refuses a spent budget). Returns the
   * tag the add landed under (the stored one when another thread is already in a later
   * window), or GOV_REFUSED. A CAS loop: racing admissions can never jointly pass a limit, and
   * each failed CAS means another thread made progress.
   */
  tryReserve(index: number, tag: number, delta: number, max: number): number {
    const u64 = this.u64;
    let word = Atomics.load(u64, index);
    for (;;) {
      const stored = tagOf(word);
      let at = tag;
      let count = 0;
      if (stored === tag) count = countOf(word);
      else if (newer(stored, tag)) {
        at = stored;
        count = countOf(word);
      }
      if (max >= 0 && (count >= max || count + delta > max)) return GOV_REFUSED;
      const seen = Atomics.compareExchange(u64, index, word, pack(at, count + delta));
      if (seen === word) return at;
      word = seen;
    }
  }

  /** Give back `amount` reserved under `tag`; dropped when that window is over (never negative). */
  refund(index: number, tag: number, amount: number): void {
    const u64 = this.u64;
    let word = Atomics.load(u64, index);
    for (;;) {
      if (tagOf(word) !== tag) return;
      const count = countOf(word);
      const seen = Atomics.compareExchange(u64, index, word, pack(tag, count > amount ? count - amount : 0));
      if (seen === word) return;
      word = seen;
    }
  }

  /** Add what a request used, in the window of `currentTag` (or a later one already started). */
  add(index: number, currentTag: number, amount: number): void {
    if (amount > 0) this.tryReserve(index, currentTag, amount, -1);
  }

  /** The count under window `tag` (0 when the word belongs to an older window). */
  read(index: number, tag: number): number {
    const word = Atomics.load(this.u64, index);
    const stored = tagOf(word);
    return stored === tag || newer(stored, tag) ? countOf(word) : 0;
  }

  /** The raw word's window tag and count (main thread, fleet reconciliation). */
  tagAt(index: number): number {
    return tagOf(Atomics.load(this.u64, index));
  }

  countAt(index: number): number {
    return countOf(Atomics.load(this.u64, index));
  }

  /**
   * Main: move the count under window `tag` by `amount` (the other nodes' spend learnt from the
   * store): the same window adds (never below 0), an older stored window starts over at
   * `amount`; a newer stored window is left alone (false: the learnt count is stale).
   */
  inject(index: number, tag: number, amount: number): boolean {
    const u64 = this.u64;
    let word = Atomics.load(u64, index);
    for (;;) {
      const stored = tagOf(word);
      let next: bigint;
      if (stored === tag) next = pack(tag, Math.max(0, countOf(word) + amount));
      else if (newer(tag, stored) || word === 0n) next = pack(tag, Math.max(0, amount));
      else return false;
      const seen = Atomics.compareExchange(u64, index, word, next);
      if (seen === word) return true;
      word = seen;
    }
  }

  // ---- persistence (main thread) --------------------------------------------------------------

  /** A key's values changed (any thread, after its adds): main saves it on the next flush. */
  markKeyDirty(slot: number): void {
    if (Atomics.load(this.views.i32, slot + GOV_KEY_DIRTY) === 0) Atomics.store(this.views.i32, slot + GOV_KEY_DIRTY, 1);
  }

  /** Main: was the key changed since the last call? Clears the flag (a change racing with the
   * save sets it again, so it is saved next time). */
  takeKeyDirty(slot: number): boolean {
    return Atomics.exchange(this.views.i32, slot + GOV_KEY_DIRTY, 0) === 1;
  }

  /** The raw tagged words of a record, or null when all are zero (nothing worth saving). */
  snapshot(slot: number, group: boolean): string[] | null {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    let out: string[] | null = null;
    for (let v = 0; v < count; v++) {
      const word = Atomics.load(this.u64, govValueIndex(slot, base, v));
      if (word === 0n && out === null) continue;
      if (out === null) out = new Array<string>(v).fill('0');
      out.push(word.toString());
    }
    return out;
  }

  /** Restore saved words (tags included: a saved window that is over still reads as 0). */
  restore(slot: number, group: boolean, words: readonly string[]): void {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    for (let v = 0; v < count && v < words.length; v++) Atomics.store(this.u64, govValueIndex(slot, base, v), BigInt(words[v]!));
  }

  /** Zero every value of a record (main, before a freed key slot is handed to a new key). */
  clear(slot: number, group: boolean): void {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    for (let v = 0; v < count; v++) Atomics.store(this.u64, govValueIndex(slot, base, v), 0n);
    if (!group) Atomics.store(this.views.i32, slot + GOV_KEY_DIRTY, 0);
  }

  // ---- a group's `concurrent` limit ------------------------------------------------------------

  /** One more request in flight under the group if fewer than `max` are (0 = unbounded). */
  tryEnter(slot: number, max: number): boolean {
    return tryAcquirePermit(this.views, slot, this.holderAt, max);
  }

  /** The request this thread let in has ended (every path: success, failure, abort). */
  leave(slot: number): void {
    releasePermit(this.views, slot, this.holderAt, 'governance group');
  }

  inflight(slot: number): number {
    return permitsInflight(this.views, slot);
  }

  /** Main thread only, after holder `holderId` exited: end what it had in flight. */
  reclaimHolder(slot: number, holderId: number): number {
    return reclaimPermits(this.views, slot, GOV_GROUP_HOLDERS + holderId);
  }
}
