// Token prices, and THE one way the gateway turns token counts into money. Every figure that
// prices tokens comes from here: the budget checks and the spend gauges (spend.ts, from the raw
// counts in shared memory), a reservation at admission (costMicrosAt), GET /usage (per stored
// row, in process or as the SQL of store/usage-summary-sql.ts, which writes the same rule).
//
// The rule: a set of counts priced at one rate costs
//     floor((input x input_rate + output x output_rate + cache_read x cache_read_rate
//            + cache_creation x cache_creation_rate) / 1,000,000)
// micro-units, computed exactly (integers only; never a float division). One floor per priced
// set: one stored usage row, or one lane's counts in one budget window. A reservation is the
// same sum rounded UP (costMicrosAt), so what a request reserves is never less than what its
// counts, priced this way, charge.
// Exactness: the sum is split at a million tokens, so no product passes 2^53 while the cost
// itself stays below 2^53 micros ($9 billion) at rates up to RATE_MAX_EXACT; a larger rate
// takes BigInt.
import type { Usage } from '../model/types.js';

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

const MILLION = 1_000_000;
/** Rates up to this many micros per million tokens ($2,000 a token-million) price in Numbers:
 * 4 kinds x (10^6 - 1) x the rate stays under 2^53. */
const RATE_MAX_EXACT = 2_000_000_000;

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

function exactInNumbers(rate: RateEntry): boolean {
  return (
    rate.input_micros_per_mtok <= RATE_MAX_EXACT &&
    rate.output_micros_per_mtok <= RATE_MAX_EXACT &&
    rate.cache_read_micros_per_mtok <= RATE_MAX_EXACT &&
    rate.cache_creation_micros_per_mtok <= RATE_MAX_EXACT
  );
}

/**
 * What the counts cost at `rate`, in micro-units (the rule above; 0 without a rate: tokens are
 * free, only fees count). `roundUp`: the ceiling instead (reservations).
 */
export function costMicros(rate: RateEntry | null, input: number, output: number, cacheRead: number, cacheCreation: number, roundUp = false): number {
  if (rate === null) return 0;
  if (!exactInNumbers(rate) || !(input + output + cacheRead + cacheCreation <= Number.MAX_SAFE_INTEGER)) {
    return Number(costMicrosBig(rate, input, output, cacheRead, cacheCreation, roundUp));
  }
  // t x r = (floor(t / 10^6) x 10^6 + t mod 10^6) x r: whole millions price exactly, the
  // remainders are summed (< 4 x 10^6 x RATE_MAX_EXACT < 2^53) and divided once.
  const iM = Math.floor(input / MILLION);
  const oM = Math.floor(output / MILLION);
  const rM = Math.floor(cacheRead / MILLION);
  const cM = Math.floor(cacheCreation / MILLION);
  const whole =
    iM * rate.input_micros_per_mtok + oM * rate.output_micros_per_mtok + rM * rate.cache_read_micros_per_mtok + cM * rate.cache_creation_micros_per_mtok;
  const rest =
    (input - iM * MILLION) * rate.input_micros_per_mtok +
    (output - oM * MILLION) * rate.output_micros_per_mtok +
    (cacheRead - rM * MILLION) * rate.cache_read_micros_per_mtok +
    (cacheCreation - cM * MILLION) * rate.cache_creation_micros_per_mtok;
  if (!Number.isSafeInteger(whole)) return Number(costMicrosBig(rate, input, output, cacheRead, cacheCreation, roundUp));
  return whole + divideMillion(rest, roundUp);
}

/** costMicros of a request's usage. */
export function usageCostMicros(rate: RateEntry | null, usage: Usage): number {
  return costMicros(rate, usage.input, usage.output, usage.cacheRead, usage.cacheCreation);
}

/** The same rule in BigInt, for sums over many stored rows (a day of a big fleet can pass 2^53). */
export function costMicrosBig(rate: RateEntry | null, input: number, output: number, cacheRead: number, cacheCreation: number, roundUp = false): bigint {
  if (rate === null) return 0n;
  const perMillion =
    BigInt(input) * BigInt(rate.input_micros_per_mtok) +
    BigInt(output) * BigInt(rate.output_micros_per_mtok) +
    BigInt(cacheRead) * BigInt(rate.cache_read_micros_per_mtok) +
    BigInt(cacheCreation) * BigInt(rate.cache_creation_micros_per_mtok);
  const floor = perMillion / 1_000_000n;
  return roundUp && perMillion % 1_000_000n !== 0n ? floor + 1n : floor;
}

/**
 * A reservation's price: ceil((input x inputRate + output x outputRate) / 10^6), exact. The
 * caller passes the dearest input rate of the lanes the request may go to (an input token may be
 * billed uncached, as a cache read or as a cache write) and the dearest output rate.
 */
export function costMicrosAt(inputRate: number, outputRate: number, inputTokens: number, outputTokens: number): number {
  const iM = Math.floor(inputTokens / MILLION);
  const oM = Math.floor(outputTokens / MILLION);
  const whole = iM * inputRate + oM * outputRate;
  const rest = (inputTokens - iM * MILLION) * inputRate + (outputTokens - oM * MILLION) * outputRate;
  if (!Number.isSafeInteger(rest) || !Number.isSafeInteger(whole)) {
    const big = BigInt(inputTokens) * BigInt(inputRate) + BigInt(outputTokens) * BigInt(outputRate);
    return Number((big + 999_999n) / 1_000_000n);
  }
  return whole + divideMillion(rest, true);
}

/** Exact floor (or ceiling) of a non-negative safe integer over a million: no float division. */
function divideMillion(n: number, roundUp: boolean): number {
  const remainder = n % MILLION;
  const floor = (n - remainder) / MILLION;
  return roundUp && remainder !== 0 ? floor + 1 : floor;
}
