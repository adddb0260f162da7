// Reservation journals (layout.ts, "reservation journals"): each worker writes down what each
// of its requests in flight reserved, in an entry of its own, so that main can give it all
// back once that worker has died (a crash, an operator recycle), as it reclaims a dead
// worker's permits; without it a recycled worker's reservations would hold a budget until the
// window ends. The order keeps the journal a lower bound of what is outstanding, never more:
// an item is written after its reservation succeeded, and an entry is cleared before its
// reservations are given back, so a worker dying in between leaves a reservation held (the
// safe side) and main never gives back what was not reserved or was already given back.
// An entry's words are written only by its worker and read by main only after that worker
// exited (the 'exit' event follows the thread's end), so plain stores suffice for the items;
// the item count is stored atomically anyway, which costs nothing here.
import {
  HEADER_RESERVATIONS,
  JOURNAL_ENTRIES,
  JOURNAL_ENTRY_WORDS,
  JOURNAL_HOLDERS,
  JOURNAL_ITEMS_MAX,
  JOURNAL_ITEM_WORDS,
  journalEntryWord,
} from './layout.js';
import type { ReservedWords } from './reserved-words.js';
import type { SharedViews } from './shared-views.js';

const AMOUNT_MAX = 0xffffffff;

/** An entry: `words[at]` is its item count, its items follow (a journal entry, or a private one
 * when the journal has none free or a request needs more items than an entry holds). */
export interface JournalEntry {
  words: Uint32Array;
  at: number;
  /** Items it has room for. */
  capacity: number;
}

/** Words of a private entry for `items` items (kept by its request, unseen by main). */
export function privateEntryWords(items: number): number {
  return 1 + items * JOURNAL_ITEM_WORDS;
}

/** Append an item (after its reservation succeeded). False: the entry is full. An amount past
 * 2^32 - 1 is noted as that (main would give back less than was held: the safe side). */
export function noteItem(e: JournalEntry, index: number, tag: number, amount: number): boolean {
  const words = e.words;
  const n = words[e.at]!;
  if (n >= e.capacity) return false;
  const item = e.at + 1 + n * JOURNAL_ITEM_WORDS;
  words[item] = index;
  words[item + 1] = tag;
  words[item + 2] = Math.min(amount, AMOUNT_MAX);
  Atomics.store(words, e.at, n + 1);
  return true;
}

export function itemCount(e: JournalEntry): number {
  return e.words[e.at]!;
}

/** Forget the items (before they are given back): a worker dying after this leaks them held. */
export function clearItems(e: JournalEntry): void {
  Atomics.store(e.words, e.at, 0);
}

export function itemIndex(e: JournalEntry, i: number): number {
  return e.words[e.at + 1 + i * JOURNAL_ITEM_WORDS]!;
}

export function itemTag(e: JournalEntry, i: number): number {
  return e.words[e.at + 2 + i * JOURNAL_ITEM_WORDS]!;
}

export function itemAmount(e: JournalEntry, i: number): number {
  return e.words[e.at + 3 + i * JOURNAL_ITEM_WORDS]!;
}

/** A worker's own entries: taken at admission, handed back at settle (a free stack, no allocation). */
export class ReservationJournal {
  private free: Int32Array | null = null;
  private top = 0;
  private words: Uint32Array | null = null;

  constructor(
    private readonly views: SharedViews,
    private readonly holderId: number,
  ) {}

  /** Take a free entry of this holder's into `into`; false: no journal (tests, main) or all in use. */
  take(into: JournalEntry): boolean {
    if (this.free === null && !this.open()) return false;
    if (this.top === 0) return false;
    into.words = this.words!;
    into.at = this.free![--this.top]!;
    into.capacity = JOURNAL_ITEMS_MAX;
    return true;
  }

  /** Hand an entry back (its items cleared first). */
  give(e: JournalEntry): void {
    if (e.words !== this.words) return; // a private entry
    this.free![this.top++] = e.at;
  }

  /** Find this holder's entries (main wrote the header before starting this worker). */
  private open(): boolean {
    const i32 = this.views.i32For(HEADER_RESERVATIONS);
    const slot = Atomics.load(i32, HEADER_RESERVATIONS);
    if (slot === 0) return false;
    const entries = Atomics.load(this.views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_ENTRIES);
    const holders = Atomics.load(this.views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_HOLDERS);
    if (this.holderId >= holders || entries <= 0) {
      this.free = new Int32Array(0);
      return false;
    }
    this.words = this.views.u32For(journalEntryWord(slot, holders, entries, this.holderId, entries - 1) + JOURNAL_ENTRY_WORDS - 1);
    const free = new Int32Array(entries);
    // Entry 0 on top: a quiet worker keeps using the same few pages.
    for (let e = 0; e < entries; e++) free[e] = journalEntryWord(slot, holders, entries, this.holderId, entries - 1 - e);
    this.free = free;
    this.top = entries;
    return true;
  }
}

/**
 * Main thread, after holder `holderId`'s thread exited: give back everything its entries still
 * hold and clear them (a replacement worker under the same id starts with free entries).
 * Returns the number of reservations given back.
 */
export function reclaimJournal(views: SharedViews, reserved: ReservedWords, holderId: number): number {
  const slot = Atomics.load(views.i32For(HEADER_RESERVATIONS), HEADER_RESERVATIONS);
  if (slot === 0) return 0;
  const entries = Atomics.load(views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_ENTRIES);
  const holders = Atomics.load(views.i32For(slot + JOURNAL_HOLDERS), slot + JOURNAL_HOLDERS);
  if (holderId >= holders) return 0;
  const words = views.u32For(journalEntryWord(slot, holders, entries, holderId, entries - 1) + JOURNAL_ENTRY_WORDS - 1);
  const e: JournalEntry = { words, at: 0, capacity: JOURNAL_ITEMS_MAX };
  let given = 0;
  for (let i = 0; i < entries; i++) {
    e.at = journalEntryWord(slot, holders, entries, holderId, i);
    const n = itemCount(e);
    if (n === 0) continue;
    clearItems(e);
    for (let k = 0; k < n; k++) reserved.release(itemIndex(e, k), itemTag(e, k), itemAmount(e, k));
    given += n;
  }
  return given;
}
