// What a budget bucket's spend is priced with: the fee and rate card of the nearest group,
// from the bucket's own group up its parents, that sets either (a key's budget: from its bound
// group up). Spend is recomputed from raw counts at every check, so these are read live: a
// group update brings new group objects, hence new prices, and the next check re-prices.
import { cardRates, type CardRates } from '../../shared/governance/card-rates.js';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { WorkerGroup } from '../../shared/governance/worker-state.js';

export interface Price {
  feeMicros: number;
  rateCard: readonly RateEntry[];
  /** The card compiled for lookups by lane id; null = tokens are free. */
  rates: CardRates | null;
}

const FREE: Price = { feeMicros: 0, rateCard: [], rates: null };

/** One Price per group object that sets one (shared by every chain through it). */
const ownPrices = new WeakMap<WorkerGroup, Price>();

function ownPrice(g: WorkerGroup): Price | null {
  if (!(g.feeMicros > 0 || g.rateCard.length > 0)) return null;
  let p = ownPrices.get(g);
  if (p === undefined) {
    p = { feeMicros: g.feeMicros, rateCard: g.rateCard, rates: cardRates(g.rateCard) };
    ownPrices.set(g, p);
  }
  return p;
}

/** The price of each group's budget along a chain (bound group first); [0] also prices the key. */
export function chainPrices(chain: readonly WorkerGroup[]): Price[] {
  const out = new Array<Price>(chain.length);
  let below: Price = FREE;
  for (let i = chain.length - 1; i >= 0; i--) {
    below = ownPrice(chain[i]!) ?? below;
    out[i] = below;
  }
  return out;
}

/** The price of group `name`'s budget, walking parents in `groups` (metrics readers). */
export function groupPrice(groups: ReadonlyMap<string, WorkerGroup>, name: string | null): Price {
  let at = name;
  for (let depth = 0; at !== null && depth < 16; depth++) {
    const g = groups.get(at);
    if (g === undefined) break;
    const p = ownPrice(g);
    if (p !== null) return p;
    at = g.parent;
  }
  return FREE;
}
