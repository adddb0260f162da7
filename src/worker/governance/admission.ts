// The admit step: after authentication, before the request is forwarded. It refuses a disabled
// key (403), a pool outside the key's allowed_pools (403) and a frozen group in the chain
// (403); then, with governance enabled, it reserves against every limit of every group in the
// chain and the key's own caps, in shared memory, by CAS:
// - requests: +1 under the cap (rpm for the key);
// - tokens: the request's estimated tokens (request-estimate.ts) into the window's outstanding
//   word, while tokens counted + outstanding + this estimate fit the cap (tpm for the key);
// - budget: the fee + the estimate priced at the rate card in force, into the outstanding
//   word, while spend (requests charged x fee + the window's raw tokens x rate card, recomputed
//   now) + outstanding + this reservation fit the cap (max_budget_cents for the key);
// - concurrent: one more in flight under the group's cap.
// Settle (lease.ts) replaces each reservation by what the request used. So past a cap the
// admitted cost exceeds it by at most the estimation error of the requests in flight
// (docs/configuration.md, "Reservations"). The first limit that refuses ends admission: what
// was reserved before it is given back, and the refusal names the bucket (group, metric,
// window) with Retry-After where a window ends.
import { WINDOW_MINUTE, WINDOW_NAMES, secondsToWindowEnd } from '../../shared/governance/windows.js';
import {
  METRIC_BUDGET,
  METRIC_CONCURRENT,
  METRIC_NAMES,
  METRIC_REQUESTS,
  METRIC_TOKENS,
  type WorkerGroup,
  type WorkerKey,
} from '../../shared/governance/worker-state.js';
import {
  GOV_BUDGET_RESERVED,
  GOV_KEY_BUDGET_RESERVED,
  GOV_KEY_MINUTE_REQUESTS,
  GOV_KEY_MINUTE_TOKENS,
  GOV_KEY_MINUTE_TOKENS_RESERVED,
  GOV_REFUSED,
  GOV_REQUESTS,
  GOV_TOKENS,
  GOV_TOKENS_RESERVED,
  type GovernanceCounters,
  type JournalEntry,
  type ReservationJournal,
  type ReservedWords,
  type SettleGate,
} from '../../shared/sab/index.js';
import type { DeferredSettles } from './deferred-settles.js';
import type { AdmissionKey } from './key-table.js';
import { Refusal } from './refusal.js';
import type { RequestEstimate } from './request-estimate.js';
import { reserveSpend, reserveTokens, releaseAll } from './reserve.js';

function bucketName(group: string, window: number, metric: number): string {
  const w = metric === METRIC_CONCURRENT ? 'concurrent' : WINDOW_NAMES[window]!;
  return `group:${group}@${w}`;
}

/** What the refused request would have reserved, for the message (tokens, or micros). */
function asking(metric: number, amount: number): string {
  if (metric === METRIC_TOKENS) return ` (this request reserves ${amount} tokens)`;
  if (metric === METRIC_BUDGET) return ` (this request reserves ${amount} micros)`;
  return '';
}

function refuseGroup(group: WorkerGroup, metric: number, window: number, max: number, nowSec: number, amount: number): Refusal {
  const windowName = metric === METRIC_CONCURRENT ? 'in flight' : WINDOW_NAMES[window]!;
  const bucket = bucketName(group.name, window, metric);
  const message = `limit reached: bucket ${bucket} (group "${group.name}", metric ${METRIC_NAMES[metric]}, window ${windowName}) is at its max of ${max}${asking(metric, amount)}`;
  if (metric === METRIC_BUDGET) return new Refusal('insufficient_quota', message, undefined, bucket);
  if (metric === METRIC_CONCURRENT) return new Refusal('rate_limited', message, 1, bucket);
  return new Refusal('rate_limited', message, secondsToWindowEnd(window, nowSec) ?? 86_400, bucket);
}

function refuseKey(key: WorkerKey, what: string, window: number, max: number, nowSec: number, budget: boolean, reserves: string): Refusal {
  const message = `limit reached: key ${key.id} ${what} (window ${WINDOW_NAMES[window]}) is at its max of ${max}${reserves}`;
  if (budget) return new Refusal('insufficient_quota', message);
  return new Refusal('rate_limited', message, secondsToWindowEnd(window, nowSec) ?? 86_400);
}

/** Checks before any counter: 403s for a disabled key, a pool it may not use, a frozen group. */
export function checkAccess(entry: AdmissionKey, target: string): Refusal | null {
  const key = entry.key;
  if (!key.enabled) return new Refusal('forbidden', `key ${key.id} is disabled`);
  const pools = key.pools;
  if (!pools.includes('*') && !pools.includes(target)) return new Refusal('forbidden', `key ${key.id} may not use "${target}" (not in its allowed_pools)`);
  for (const g of entry.chain) if (!g.enabled) return new Refusal('forbidden', `group "${g.name}" is frozen (enabled: false)`);
  return null;
}

/** The shared-memory parts admission and settle work on (one set per worker). */
export interface AdmissionCounters {
  counters: GovernanceCounters;
  reserved: ReservedWords;
  journal: ReservationJournal;
  gate: SettleGate;
  /** Settles that came during a flush cut, run right after it. */
  deferred: DeferredSettles;
}

/**
 * Reserve for one request; null when admitted. Each reservation made is noted in `noted`
 * (the lease's journal entry), which settle gives back. `estimate` null: the chain and key
 * have no tokens or budget limit (entry.reservations is 0).
 */
export function reserve(
  k: AdmissionCounters,
  entry: AdmissionKey,
  tags: readonly number[],
  nowSec: number,
  estimate: RequestEstimate | null,
  noted: JournalEntry,
): Refusal | null {
  const refused = walk(k, entry, tags, nowSec, estimate, noted, -1);
  return refused;
}

/** The admission walk. With `undoSteps` >= 0 it gives back the first `undoSteps` requests and
 * concurrency steps instead of making them (same order, same tags); reservations are given back
 * from the journal entry. */
function walk(
  k: AdmissionCounters,
  entry: AdmissionKey,
  tags: readonly number[],
  nowSec: number,
  estimate: RequestEstimate | null,
  noted: JournalEntry,
  undoSteps: number,
): Refusal | null {
  const c = k.counters;
  const undo = undoSteps >= 0;
  let step = 0;
  const chain = entry.chain;
  const prices = entry.prices;
  const tokens = estimate === null ? 0 : estimate.tokens;
  for (let gi = 0; gi < chain.length; gi++) {
    const g = chain[gi]!;
    for (const limit of g.limits) {
      if (undo && step >= undoSteps) return null;
      const w = limit.window;
      switch (limit.metric) {
        case METRIC_REQUESTS: {
          const at = c.groupIndex(g.slot, w, GOV_REQUESTS);
          if (undo) c.refund(at, tags[w]!, 1);
          else if (c.tryReserve(at, tags[w]!, 1, limit.max) === GOV_REFUSED)
            return fail(k, entry, tags, nowSec, step, noted, refuseGroup(g, METRIC_REQUESTS, w, limit.max, nowSec, 0));
          break;
        }
        case METRIC_TOKENS: {
          if (undo) break;
          const at = c.groupIndex(g.slot, w, GOV_TOKENS_RESERVED);
          if (!reserveTokens(k, at, c.groupIndex(g.slot, w, GOV_TOKENS), tags[w]!, tokens, limit.max, noted)) {
            return fail(k, entry, tags, nowSec, step, noted, refuseGroup(g, METRIC_TOKENS, w, limit.max, nowSec, tokens));
          }
          break;
        }
        case METRIC_BUDGET: {
          if (undo) break;
          const p = prices[gi]!;
          const micros = estimate === null ? p.feeMicros : estimate.micros(p);
          if (!reserveSpend(k, g.slot, w, c.groupIndex(g.slot, w, GOV_BUDGET_RESERVED), tags[w]!, micros, limit.max, p, false, noted)) {
            return fail(k, entry, tags, nowSec, step, noted, refuseGroup(g, METRIC_BUDGET, w, limit.max, nowSec, micros));
          }
          break;
        }
        case METRIC_CONCURRENT:
          if (undo) c.leave(g.slot);
          else if (!c.tryEnter(g.slot, limit.max)) return fail(k, entry, tags, nowSec, step, noted, refuseGroup(g, METRIC_CONCURRENT, w, limit.max, nowSec, 0));
          break;
      }
      step++;
    }
  }
  const key = entry.key;
  const slot = key.slot;
  const minute = tags[WINDOW_MINUTE]!;
  // Key: requests per minute (always counted: GET /keys/{id}/usage shows the headroom).
  if (undo && step >= undoSteps) return null;
  if (undo) c.refund(c.keyIndex(slot, GOV_KEY_MINUTE_REQUESTS), minute, 1);
  else if (c.tryReserve(c.keyIndex(slot, GOV_KEY_MINUTE_REQUESTS), minute, 1, key.rpm) === GOV_REFUSED) {
    return fail(k, entry, tags, nowSec, step, noted, refuseKey(key, `rpm_limit`, WINDOW_MINUTE, key.rpm, nowSec, false, ''));
  }
  step++;
  // Nothing after the rpm step needs an undo replay: the reservations below are in the entry.
  if (undo) return null;
  if (key.tpm >= 0) {
    const at = c.keyIndex(slot, GOV_KEY_MINUTE_TOKENS_RESERVED);
    if (!reserveTokens(k, at, c.keyIndex(slot, GOV_KEY_MINUTE_TOKENS), minute, tokens, key.tpm, noted)) {
      return fail(k, entry, tags, nowSec, step, noted, refuseKey(key, `tpm_limit`, WINDOW_MINUTE, key.tpm, nowSec, false, asking(METRIC_TOKENS, tokens)));
    }
  }
  if (key.budgetMicros >= 0) {
    const price = entry.prices.length > 0 ? entry.prices[0]! : null;
    const micros = price === null ? 0 : estimate === null ? price.feeMicros : estimate.micros(price);
    if (
      !reserveSpend(k, slot, key.budgetWindow, c.keyIndex(slot, GOV_KEY_BUDGET_RESERVED), tags[key.budgetWindow]!, micros, key.budgetMicros, price, true, noted)
    ) {
      return fail(
        k,
        entry,
        tags,
        nowSec,
        step,
        noted,
        refuseKey(key, `max_budget_cents`, key.budgetWindow, key.budgetMicros / 10_000, nowSec, true, asking(METRIC_BUDGET, micros)),
      );
    }
  }
  return null;
}

/** A refusal: give back what the walk took before it (counts by replay, reservations from the entry). */
function fail(
  k: AdmissionCounters,
  entry: AdmissionKey,
  tags: readonly number[],
  nowSec: number,
  step: number,
  noted: JournalEntry,
  refusal: Refusal,
): Refusal {
  if (step > 0) walk(k, entry, tags, nowSec, null, noted, step);
  releaseAll(k.reserved, noted);
  return refusal;
}
