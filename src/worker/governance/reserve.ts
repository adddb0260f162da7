// One checked reservation into an outstanding word (src/shared/sab/reserved-words.ts has why it
// is exact): look at the outstanding word, THEN read what is used (tokens counted, or the
// window's spend), check `used + outstanding + amount <= max` (and `used + outstanding < max`, so
// a zero reservation is refused at the cap), and CAS the word from what was looked at. A failed
// CAS means another thread reserved or gave back meanwhile: everything is read again.
// The window: the request's own tag, unless a word it reads is already in a later one (another
// thread's clock passed the boundary first, and settled there): then that later window is the
// one in force, and the reservation is made in it.
import { windowTagLater } from '../../shared/sab/governance-counters.js';
import { GOV_BUDGET_REQUESTS, GOV_KEY_BUDGET_REQUESTS, OUTSTANDING_MAX } from '../../shared/sab/layout.js';
import { clearItems, itemAmount, itemCount, itemIndex, itemTag, noteItem, type JournalEntry, type ReservedWords } from '../../shared/sab/index.js';
import { groupTokenSpend, keyTokenSpend } from '../../shared/governance/spend.js';
import type { AdmissionCounters } from './admission.js';
import type { Price } from './price.js';

/** Commit `amount` over what look() saw if it fits; 1 committed, 0 refused, -1 look again. */
function commitIfFits(r: ReservedWords, at: number, tag: number, amount: number, max: number, used: number, noted: JournalEntry): number {
  const outstanding = r.seenTag === tag ? r.seenCount : 0;
  const current = used + outstanding;
  if (current >= max || current + amount > max || outstanding + amount > OUTSTANDING_MAX) return 0;
  if (!r.commit(at, tag, outstanding + amount)) return -1;
  // Noted after it succeeded: a journal never holds more than was reserved.
  noteItem(noted, at, tag, amount);
  return 1;
}

/** The window to reserve in: `tag`, or a later one the outstanding word or `leadAt` already holds. */
function windowInForce(k: AdmissionCounters, tag: number, leadAt: number): number {
  const r = k.reserved;
  if (r.seenTag !== tag && windowTagLater(r.seenTag, tag)) tag = r.seenTag;
  const lead = k.counters.peekTag(leadAt);
  return lead !== tag && windowTagLater(lead, tag) ? lead : tag;
}

/** Reserve `amount` tokens in outstanding word `at` while tokens counted (`usedAt`) + outstanding fit `max`. */
export function reserveTokens(k: AdmissionCounters, at: number, usedAt: number, tag: number, amount: number, max: number, noted: JournalEntry): boolean {
  const r = k.reserved;
  for (;;) {
    r.look(at);
    const inForce = windowInForce(k, tag, usedAt);
    const outcome = commitIfFits(r, at, inForce, amount, max, k.counters.read(usedAt, inForce), noted);
    if (outcome >= 0) return outcome === 1;
  }
}

/**
 * Reserve `amount` micros in the budget window's outstanding word `at` while its spend (requests
 * charged x fee + its raw tokens at the card in force) + outstanding fit `max`. `key`: the key
 * record `slot`'s budget window (`window` then unused), else group `slot`'s window `window`.
 */
export function reserveSpend(
  k: AdmissionCounters,
  slot: number,
  window: number,
  at: number,
  tag: number,
  amount: number,
  max: number,
  price: Price | null,
  key: boolean,
  noted: JournalEntry,
): boolean {
  const c = k.counters;
  const r = k.reserved;
  // Settle adds the +1 request first: the requests word shows a later window soonest.
  const requestsAt = key ? c.keyIndex(slot, GOV_KEY_BUDGET_REQUESTS) : c.groupIndex(slot, window, GOV_BUDGET_REQUESTS);
  const fee = price === null ? 0 : price.feeMicros;
  const rates = price === null ? null : price.rates;
  for (;;) {
    r.look(at);
    const inForce = windowInForce(k, tag, requestsAt);
    const tokens = key ? keyTokenSpend(c, slot, inForce, rates) : groupTokenSpend(c, slot, window, inForce, rates);
    const used = c.read(requestsAt, inForce) * fee + tokens;
    const outcome = commitIfFits(r, at, inForce, amount, max, used, noted);
    if (outcome >= 0) return outcome === 1;
  }
}

/** Give back every reservation noted in `noted` (forgotten first: see reservation-journal.ts). */
export function releaseAll(r: ReservedWords, noted: JournalEntry): void {
  const n = itemCount(noted);
  if (n === 0) return;
  clearItems(noted);
  for (let i = 0; i < n; i++) r.release(itemIndex(noted, i), itemTag(noted, i), itemAmount(noted, i));
}
