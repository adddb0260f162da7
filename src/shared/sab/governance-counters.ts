// Governance counters: one record per key and one per group, each holding all its windows
// (layout.ts, "governance records"). A value word carries its window's 16-bit tag next to the
// count, so:
// - a window rolls by the CAS that first writes the new tag (a stale word reads as 0): no
//   separate zeroing stores that a concurrent reserve could slip between;
// - a reservation remembers the tag it was made under, and a refund with that tag is dropped
//   once the window has moved on, so a late settle never drives a new window negative;
// - a late positive settle (tokens known at stream end) lands in the window in force then.
// A budget window keeps raw tokens per lane (lane slots) and the requests charged the fee, so
// spend is recomputed at every check from the current fee and rate card (nothing here prices:
// src/shared/governance/spend.ts reads these words and prices them with pricing.ts). What the
// requests in flight reserved sits in outstanding words, whose accessor is reserved-words.ts.
// BigInt stays off the request path: V8 boxes the BigInt every 64-bit atomic returns, so the
// common cases work on the two Uint32 halves (little-endian: lo = count's low 32 bits, hi =
// tag << 16 | count's high 16 bits): a read validates hi around its lo load (seqlock-style), and
// a reserve or add whose word is in its own window with a count under 2^32 is one 32-bit CAS
// on lo. A 64-bit write between (a window roll) either changes lo, so the CAS fails and
// retries, or leaves the same count in a newer window, where the check made still holds and
// the add lands in the window in force (as a late add does). Rolls, counts past 2^32 and
// give-backs (a give-back must never touch a newer window, which a lo-only CAS cannot tell)
// take the 64-bit BigInt CAS: once per window per value, or on a refusal. Group records also hold the `concurrent` permit
// block (in flight + a shadow per holder, reclaimed like lane permits after a worker dies).
// Atomics.* are calls into V8 builtins here (not inlined), and a governed request made ~90 of
// them, so the fast paths read with plain element loads where a later atomic op validates what
// was read: a reserve's CAS on lo fails if lo moved, and a read re-loads hi atomically after its
// plain loads of hi and lo (seqlock). Plain loads of an aligned 32-bit element never tear, and
// V8 keeps them in program order around an Atomics call (an effect it cannot see through), so
// no load is merged with the validating one or moved past it.
import type { Usage } from '../model/types.js';
import {
  GOV_GROUP_HOLDERS,
  GOV_GROUP_VALUES,
  GOV_GROUP_VALUE_COUNT,
  GOV_SLOT_CACHE_CREATION,
  GOV_SLOT_CACHE_READ,
  GOV_SLOT_INPUT,
  GOV_SLOT_OUTPUT,
  GOV_SLOT_VALUES,
  GOV_WINDOW_VALUES,
  GOV_BUDGET_OVERFLOW,
  GOV_GROUP_LANE_SLOTS,
  GOV_GROUP_LANE_SLOTS_AT,
  GOV_KEY_BUDGET_OVERFLOW,
  GOV_KEY_DIRTY,
  GOV_KEY_LANE_SLOTS,
  GOV_KEY_LANE_SLOTS_AT,
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
/** How far ahead a stored window may be of a thread's and still count as "later": a thread
 * computing the window a moment late is at most a window or two behind. */
const TAG_AHEAD_MAX = 2;
const LO_MAX = 0xffffffff;
const HI_COUNT_MASK = 0xffff;
const TWO_32 = 4294967296;

function tagOf(word: bigint): number {
  return Number(word >> GOV_VALUE_BITS);
}

function countOf(word: bigint): number {
  return Number(word & GOV_VALUE_MAX);
}

function pack(tag: number, count: number): bigint {
  return (BigInt(tag) << GOV_VALUE_BITS) | BigInt(count);
}

/**
 * True when tag `a` is the window just after `b` (or the one after that): a thread still on `b`
 * lands in it. Anything else differing is an OLD window. (Half-range serial arithmetic read a
 * never-written word, tag 0, as later than every tag in the upper half of the 16-bit range, so
 * for weeks at a time minute counters never rolled; and a word idle for more than half the
 * range read as later too.)
 */
export function windowTagLater(a: number, b: number): boolean {
  const d = (a - b) & 0xffff;
  return d !== 0 && d <= TAG_AHEAD_MAX;
}

const newer = windowTagLater;

export class GovernanceCounters {
  private readonly holderAt: number;

  constructor(
    private readonly views: SharedViews,
    holderId: number,
  ) {
    this.holderAt = GOV_GROUP_HOLDERS + holderId;
  }

  // ---- values (key and group records alike; `base` says which record kind) ------------------

  /** Key record value `value` (GOV_KEY_*). */
  keyIndex(slot: number, value: number): number {
    if (!(value >= 0 && value < GOV_KEY_VALUE_COUNT)) throw new RangeError(`unknown key counter ${value}`);
    return govValueIndex(slot, GOV_KEY_VALUES, value);
  }

  /** Group record value of window `window` (0..4), value `metric` (GOV_REQUESTS...). */
  groupIndex(slot: number, window: number, metric: number): number {
    const value = window * GOV_WINDOW_VALUES + metric;
    if (!(metric >= 0 && metric < GOV_WINDOW_VALUES && value < GOV_GROUP_VALUE_COUNT)) throw new RangeError(`unknown group counter ${window}/${metric}`);
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
    // Fast path: the word is in window `tag` with a count under 2^32 (see the top of the file).
    const lo = index << 1;
    const u32 = this.views.u32For(lo + 1);
    // No re-load of hi after lo: the CAS fails if lo moved, and a roll between the loads that
    // left lo as it was leaves a newer window holding the count this check was made against
    // (the add lands there, and a give-back under `tag` is then dropped: never an over-admit).
    for (;;) {
      const hi = u32[lo + 1]!;
      if (hi >>> 16 !== tag || (hi & HI_COUNT_MASK) !== 0) break;
      const count = u32[lo]!;
      if (max >= 0 && (count >= max || count + delta > max)) return GOV_REFUSED;
      if (delta === 0) return tag;
      if (count + delta > LO_MAX) break;
      if (Atomics.compareExchange(u32, lo, count, count + delta) === count) return tag;
    }
    return this.tryReserveWide(index, tag, delta, max);
  }

  /** tryReserve on the whole 64-bit word (a window roll, a count past 2^32). */
  private tryReserveWide(index: number, tag: number, delta: number, max: number): number {
    const u64 = this.views.u64For(index);
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
    const u64 = this.views.u64For(index);
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

  /** Ledger a request's tokens in a key's budget window, per lane (false: no lane slot left). */
  addKeyLaneTokens(slot: number, tag: number, lane: number, usage: Usage): boolean {
    return this.addLaneTokens(this.keyIndex(slot, GOV_KEY_LANE_SLOTS_AT), GOV_KEY_LANE_SLOTS, tag, lane, usage);
  }

  /** Ledger a request's tokens in a group's budget window, per lane (false: no lane slot left). */
  addGroupLaneTokens(slot: number, window: number, tag: number, lane: number, usage: Usage): boolean {
    return this.addLaneTokens(this.groupIndex(slot, window, GOV_GROUP_LANE_SLOTS_AT), GOV_GROUP_LANE_SLOTS, tag, lane, usage);
  }

  /** The overflow value (accrued micros) of a key's budget window / a group window. */
  keyOverflowIndex(slot: number): number {
    return this.keyIndex(slot, GOV_KEY_BUDGET_OVERFLOW);
  }

  groupOverflowIndex(slot: number, window: number): number {
    return this.groupIndex(slot, window, GOV_BUDGET_OVERFLOW);
  }

  // ---- lane slots: raw tokens per lane in a budget window ----------------------------------

  /**
   * The lane in a lane slot's id word under window `tag` (or a later one already started),
   * claiming the slot for `lane` when it is free there (0 or an older window). Returns the
   * occupant: `lane` when this or an earlier claim holds the slot for it.
   */
  private claim(index: number, tag: number, lane: number): number {
    const occupant = this.read(index, tag);
    if (occupant !== 0) return occupant;
    const u64 = this.views.u64For(index);
    let word = Atomics.load(u64, index);
    for (;;) {
      const stored = tagOf(word);
      let at = tag;
      if (stored === tag || newer(stored, tag)) {
        const occupant = countOf(word);
        if (occupant !== 0) return occupant;
        at = stored;
      }
      const seen = Atomics.compareExchange(u64, index, word, pack(at, lane));
      if (seen === word) return lane;
      word = seen;
    }
  }

  /**
   * Main, fleet reconciliation: the value index of lane `lane`'s slot among the `slots` slots
   * from `slotsAt` under window `tag`, claiming a free one for it; -1 when every slot holds
   * another lane in that window (the learnt tokens then stay out, as a fourth lane's would).
   */
  laneSlotAt(slotsAt: number, slots: number, tag: number, lane: number): number {
    for (let s = 0; s < slots; s++) {
      const at = slotsAt + s * GOV_SLOT_VALUES;
      if (this.claim(at, tag, lane) === lane) return at;
    }
    return -1;
  }

  /**
   * Add a request's tokens to lane `lane`'s slot among the `slots` slots from value index
   * `slotsAt`. False when every slot holds another lane in this window: the caller then adds
   * their cost, priced now, to the window's accrued overflow value (pricing is not done here).
   */
  addLaneTokens(slotsAt: number, slots: number, tag: number, lane: number, usage: Usage): boolean {
    for (let s = 0; s < slots; s++) {
      const at = slotsAt + s * GOV_SLOT_VALUES;
      if (this.claim(at, tag, lane) !== lane) continue;
      this.add(at + GOV_SLOT_INPUT, tag, usage.input);
      this.add(at + GOV_SLOT_OUTPUT, tag, usage.output);
      this.add(at + GOV_SLOT_CACHE_READ, tag, usage.cacheRead);
      this.add(at + GOV_SLOT_CACHE_CREATION, tag, usage.cacheCreation);
      return true;
    }
    return false;
  }

  /** The window tag a word holds now (a plain load: a hint of which window is in force). */
  peekTag(index: number): number {
    const hi = (index << 1) + 1;
    return this.views.u32For(hi)[hi]! >>> 16;
  }

  /** The count under window `tag` (0 when the word belongs to an older window). */
  read(index: number, tag: number): number {
    const lo = index << 1;
    const u32 = this.views.u32For(lo + 1);
    for (;;) {
      const hi = u32[lo + 1]!;
      const stored = hi >>> 16;
      if (stored !== tag && !newer(stored, tag)) return 0;
      const count = u32[lo]!;
      if (Atomics.load(u32, lo + 1) === hi) return (hi & HI_COUNT_MASK) * TWO_32 + count;
    }
  }

  /** The raw word's window tag and count (main thread, fleet reconciliation). */
  tagAt(index: number): number {
    return tagOf(Atomics.load(this.views.u64For(index), index));
  }

  countAt(index: number): number {
    return countOf(Atomics.load(this.views.u64For(index), index));
  }

  /**
   * Main: move the count under window `tag` by `amount` (the other nodes' spend learnt from the
   * store): the same window adds (never below 0), an older stored window starts over at
   * `amount`; a newer stored window is left alone (false: the learnt count is stale).
   */
  inject(index: number, tag: number, amount: number): boolean {
    const u64 = this.views.u64For(index);
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
    const at = slot + GOV_KEY_DIRTY;
    const u32 = this.views.u32For(at);
    // A plain read: it follows this thread's CAS on the values, so a 1 seen here was set before
    // main's take, and main's snapshot after that take reads those values.
    if (u32[at] === 0) Atomics.store(u32, at, 1);
  }

  /** Main: was the key changed since the last call? Clears the flag (a change racing with the
   * save sets it again, so it is saved next time). */
  takeKeyDirty(slot: number): boolean {
    const at = slot + GOV_KEY_DIRTY;
    return Atomics.exchange(this.views.i32For(at), at, 0) === 1;
  }

  /** The raw tagged words of a record, or null when all are zero (nothing worth saving). */
  snapshot(slot: number, group: boolean): string[] | null {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    let out: string[] | null = null;
    for (let v = 0; v < count; v++) {
      const word = Atomics.load(this.views.u64For(govValueIndex(slot, base, v)), govValueIndex(slot, base, v));
      if (word === 0n && out === null) continue;
      if (out === null) out = new Array<string>(v).fill('0');
      out.push(word.toString());
    }
    return out;
  }

  /** Restore saved words (tags included: a saved window that is over still reads as 0). False,
   * and nothing restored, for words of another record layout (a save by an older build). */
  restore(slot: number, group: boolean, words: readonly string[]): boolean {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    if (words.length !== count) return false;
    for (let v = 0; v < count; v++) Atomics.store(this.views.u64For(govValueIndex(slot, base, v)), govValueIndex(slot, base, v), BigInt(words[v]!));
    return true;
  }

  /** Zero every value of a record (main, before a freed key slot is handed to a new key). */
  clear(slot: number, group: boolean): void {
    const count = group ? GOV_GROUP_VALUE_COUNT : GOV_KEY_VALUE_COUNT;
    const base = group ? GOV_GROUP_VALUES : GOV_KEY_VALUES;
    for (let v = 0; v < count; v++) Atomics.store(this.views.u64For(govValueIndex(slot, base, v)), govValueIndex(slot, base, v), 0n);
    if (!group) Atomics.store(this.views.i32For(slot + GOV_KEY_DIRTY), slot + GOV_KEY_DIRTY, 0);
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
