// The admit step: after authentication, before the request is forwarded. It refuses a disabled
// key (403), a pool outside the key's allowed_pools (403) and a frozen group in the chain
// (403); then, with governance enabled, it reserves against every limit of every group in the
// chain and the key's own caps, in shared memory, by CAS:
// - requests: +1 under the cap (rpm for the key);
// - budget: the per-request fee, and only while spend is under the cap (the token cost of a
//   request is known at its end, so a budget can be overshot by what is in flight);
// - tokens: admitted while the window's tokens are under the cap (tokens are added at settle);
// - concurrent: one more in flight under the group's cap.
// The first limit that refuses ends admission: what was reserved before it is given back, and
// the refusal names the bucket (group, metric, window) with Retry-After where a window ends.
import { findRate, type RateEntry } from '../../shared/governance/pricing.js';
import {
  WINDOW_MINUTE, WINDOW_NAMES, secondsToWindowEnd,
} from '../../shared/governance/windows.js';
import {
  METRIC_BUDGET, METRIC_CONCURRENT, METRIC_NAMES, METRIC_REQUESTS, METRIC_TOKENS, type WorkerGroup, type WorkerKey,
} from '../../shared/governance/worker-state.js';
import {
  GOV_KEY_BUDGET_REQUESTS, GOV_KEY_BUDGET_SPEND, GOV_KEY_MINUTE_REQUESTS, GOV_KEY_MINUTE_TOKENS, GOV_REFUSED,
  GOV_REQUESTS, GOV_SPEND_MICROS, GOV_TOKENS, type GovernanceCounters,
} from '../../shared/sab/index.js';
import type { AdmissionKey } from './key-table.js';
import { Refusal } from './refusal.js';

/** Fee and rate card a request is priced with: the nearest group in the chain that sets them. */
export interface Price {
  feeMicros: number;
  rateCard: readonly RateEntry[];
}

const FREE: Price = { feeMicros: 0, rateCard: [] };

export function priceOf(chain: readonly WorkerGroup[]): Price {
  for (const g of chain) if (g.feeMicros > 0 || g.rateCard.length > 0) return { feeMicros: g.feeMicros, rateCard: g.rateCard };
  return FREE;
}

export function rateFor(price: Price, lane: string) {
  return price.rateCard.length === 0 ? null : findRate(price.rateCard, lane);
}

function bucketName(group: string, window: number, metric: number): string {
  const w = metric === METRIC_CONCURRENT ? 'concurrent' : WINDOW_NAMES[window]!;
  return `group:${group}@${w}`;
}

function refuseGroup(group: WorkerGroup, metric: number, window: number, max: number, nowSec: number): Refusal {
  const windowName = metric === METRIC_CONCURRENT ? 'in flight' : WINDOW_NAMES[window]!;
  const message = `limit reached: bucket ${bucketName(group.name, window, metric)} (group "${group.name}", metric ${METRIC_NAMES[metric]}, window ${windowName}) is at its max of ${max}`;
  if (metric === METRIC_BUDGET) return new Refusal('insufficient_quota', message);
  if (metric === METRIC_CONCURRENT) return new Refusal('rate_limited', message, 1);
  return new Refusal('rate_limited', message, secondsToWindowEnd(window, nowSec) ?? 86_400);
}

function refuseKey(key: WorkerKey, what: string, window: number, max: number, nowSec: number, budget: boolean): Refusal {
  const message = `limit reached: key ${key.id} ${what} (window ${WINDOW_NAMES[window]}) is at its max of ${max}`;
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

/**
 * Reserve for one request; null when admitted. `upTo` limits the walk for the give-back of a
 * refused admission: the same walk is replayed over the steps that had reserved.
 */
export function reserve(c: GovernanceCounters, entry: AdmissionKey, price: Price, tags: readonly number[], nowSec: number): Refusal | null {
  return walk(c, entry, price, tags, nowSec, -1);
}

/** The admission walk. With `undoSteps` >= 0 it gives back the first `undoSteps` reservations
 * instead of making them (same order, same tags). */
function walk(c: GovernanceCounters, entry: AdmissionKey, price: Price, tags: readonly number[], nowSec: number, undoSteps: number): Refusal | null {
  const undo = undoSteps >= 0;
  let step = 0;
  const fee = price.feeMicros;
  for (const g of entry.chain) {
    for (const limit of g.limits) {
      if (undo && step >= undoSteps) return null;
      const w = limit.window;
      switch (limit.metric) {
        case METRIC_REQUESTS: {
          const at = c.groupIndex(g.slot, w, GOV_REQUESTS);
          if (undo) c.refund(at, tags[w]!, 1);
          else if (c.tryReserve(at, tags[w]!, 1, limit.max) === GOV_REFUSED) return fail(c, entry, price, tags, nowSec, step, refuseGroup(g, METRIC_REQUESTS, w, limit.max, nowSec));
          break;
        }
        case METRIC_TOKENS: {
          const at = c.groupIndex(g.slot, w, GOV_TOKENS);
          if (!undo && c.tryReserve(at, tags[w]!, 0, limit.max) === GOV_REFUSED) return fail(c, entry, price, tags, nowSec, step, refuseGroup(g, METRIC_TOKENS, w, limit.max, nowSec));
          break;
        }
        case METRIC_BUDGET: {
          const at = c.groupIndex(g.slot, w, GOV_SPEND_MICROS);
          if (undo) c.refund(at, tags[w]!, fee);
          else if (c.tryReserve(at, tags[w]!, fee, limit.max) === GOV_REFUSED) return fail(c, entry, price, tags, nowSec, step, refuseGroup(g, METRIC_BUDGET, w, limit.max, nowSec));
          break;
        }
        case METRIC_CONCURRENT:
          if (undo) c.leave(g.slot);
          else if (!c.tryEnter(g.slot, limit.max)) return fail(c, entry, price, tags, nowSec, step, refuseGroup(g, METRIC_CONCURRENT, w, limit.max, nowSec));
          break;
      }
      step++;
    }
  }
  const key = entry.key;
  const slot = key.slot;
  const minute = tags[WINDOW_MINUTE]!;
  const budget = tags[key.budgetWindow]!;
  // Key: requests per minute (always counted: GET /keys/{id}/usage shows the headroom).
  if (undo && step >= undoSteps) return null;
  if (undo) c.refund(c.keyIndex(slot, GOV_KEY_MINUTE_REQUESTS), minute, 1);
  else if (c.tryReserve(c.keyIndex(slot, GOV_KEY_MINUTE_REQUESTS), minute, 1, key.rpm) === GOV_REFUSED) {
    return fail(c, entry, price, tags, nowSec, step, refuseKey(key, `rpm_limit`, WINDOW_MINUTE, key.rpm, nowSec, false));
  }
  step++;
  if (undo && step >= undoSteps) return null;
  if (!undo && key.tpm >= 0 && c.tryReserve(c.keyIndex(slot, GOV_KEY_MINUTE_TOKENS), minute, 0, key.tpm) === GOV_REFUSED) {
    return fail(c, entry, price, tags, nowSec, step, refuseKey(key, `tpm_limit`, WINDOW_MINUTE, key.tpm, nowSec, false));
  }
  step++;
  if (undo && step >= undoSteps) return null;
  if (undo) c.refund(c.keyIndex(slot, GOV_KEY_BUDGET_SPEND), budget, fee);
  else if (c.tryReserve(c.keyIndex(slot, GOV_KEY_BUDGET_SPEND), budget, fee, key.budgetMicros) === GOV_REFUSED) {
    return fail(c, entry, price, tags, nowSec, step, refuseKey(key, `max_budget_cents`, key.budgetWindow, key.budgetMicros / 10_000, nowSec, true));
  }
  // Last and unconditional, so nothing after it can refuse: never given back.
  if (!undo) {
    c.add(c.keyIndex(slot, GOV_KEY_BUDGET_REQUESTS), budget, 1);
    c.markKeyDirty(slot);
  }
  return null;
}

function fail(c: GovernanceCounters, entry: AdmissionKey, price: Price, tags: readonly number[], nowSec: number, step: number, refusal: Refusal): Refusal {
  if (step > 0) walk(c, entry, price, tags, nowSec, step);
  return refusal;
}

