// Token prices in integer micro-units of the currency per million tokens, and what a request's
// tokens cost under them. Integer math only: the products stay far under 2^53 for any real
// request (10^7 tokens x 10^8 micros per Mtok = 10^15), and the division truncates.

export interface RateEntry {
  /** A lane name (the config key under `models:`), or `*` for every model. */
  model: string;
  /** A service tier; the gateway bills every request at tier `default`; `*` matches any. */
  tier: string;
  input_micros_per_mtok: number;
  output_micros_per_mtok: number;
  cache_read_micros_per_mtok: number;
  cache_creation_micros_per_mtok: number;
}

export const DEFAULT_TIER = 'default';

/** The entry for (model, tier): an exact model beats `*`, an exact tier beats `*`. */
export function findRate(card: readonly RateEntry[], model: string, tier: string = DEFAULT_TIER): RateEntry | null {
  let best: RateEntry | null = null;
  let bestScore = -1;
  for (const entry of card) {
    const modelScore = entry.model === model ? 2 : entry.model === '*' ? 0 : -1;
    const tierScore = entry.tier === tier ? 1 : entry.tier === '*' ? 0 : -1;
    if (modelScore < 0 || tierScore < 0) continue;
    if (modelScore + tierScore > bestScore) {
      best = entry;
      bestScore = modelScore + tierScore;
    }
  }
  return best;
}

/** Micro-units the tokens cost at `rate` (0 without a rate: tokens are free, only fees count). */
export function tokenCostMicros(rate: RateEntry | null, input: number, output: number, cacheRead: number, cacheCreation: number): number {
  if (rate === null) return 0;
  const perMillion =
    input * rate.input_micros_per_mtok +
    output * rate.output_micros_per_mtok +
    cacheRead * rate.cache_read_micros_per_mtok +
    cacheCreation * rate.cache_creation_micros_per_mtok;
  return Math.floor(perMillion / 1_000_000);
}

/** The same in BigInt, for sums over many stored rows (a day of a big fleet can pass 2^53). */
export function tokenCostMicrosBig(rate: RateEntry | null, input: number, output: number, cacheRead: number, cacheCreation: number): bigint {
  if (rate === null) return 0n;
  const perMillion =
    BigInt(input) * BigInt(rate.input_micros_per_mtok) +
    BigInt(output) * BigInt(rate.output_micros_per_mtok) +
    BigInt(cacheRead) * BigInt(rate.cache_read_micros_per_mtok) +
    BigInt(cacheCreation) * BigInt(rate.cache_creation_micros_per_mtok);
  return perMillion / 1_000_000n;
}
