// A rate card compiled for the budget check: the rate of a lane by its id (lane-id.ts), with
// findRate's precedence (an exact model beats `*`; every request bills at tier `default`).
// Compiled once per card object (a group update brings new objects) and shared by threads'
// readers through a WeakMap, so a check does one Map lookup per lane slot and allocates nothing.
import { findRate, type RateEntry } from './pricing.js';
import { laneId } from './lane-id.js';

export class CardRates {
  private readonly named = new Map<number, RateEntry | null>();
  /** The rate of every lane the card does not name (its `*` entry, or null: free). */
  private readonly fallback: RateEntry | null;

  constructor(card: readonly RateEntry[]) {
    for (const entry of card) if (entry.model !== '*') this.named.set(laneId(entry.model), findRate(card, entry.model));
    // A name no card entry can carry: findRate falls to the `*` entries.
    this.fallback = findRate(card, '\u0000');
  }

  of(lane: number): RateEntry | null {
    const rate = this.named.get(lane);
    return rate === undefined ? this.fallback : rate;
  }
}

const compiled = new WeakMap<readonly RateEntry[], CardRates>();

/** The compiled form of `card` (null for an empty card: tokens are free). */
export function cardRates(card: readonly RateEntry[]): CardRates | null {
  if (card.length === 0) return null;
  let rates = compiled.get(card);
  if (rates === undefined) {
    rates = new CardRates(card);
    compiled.set(card, rates);
  }
  return rates;
}
