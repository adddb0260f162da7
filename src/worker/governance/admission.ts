// The admit step: after authentication, before the request is forwarded. It refuses a disabled
// key (403), a pool outside the key's allowed_pools (403) and a frozen group in the chain
// (403); then, with governance enabled, it reserves against every limit of every group in the
// chain and the key's own caps, in shared memory, by CAS:
// - requests: +1 under the cap (rpm for the key);
// - budget: spend = requests x fee + the window's raw tokens x rate card, recomputed now from
//   the current price (price.ts); +1 request (the fee) by CAS only while spend + fee fits and
//   spend is under the cap (a request's token cost is known at its end, so a budget can be
//   overshot by what is in flight);
// - tokens: admitted while the window's tokens are under the cap (tokens are added at settle);
// - concurrent: one more in flight under the group's cap.
// The first limit that refuses ends admission: what was reserved before it is given back, and
// the refusal names the bucket (group, metric, window) with Retry-After where a window ends.
import {
  WINDOW_MINUTE, WINDOW_NAMES, secondsToWindowEnd,
} from '../../shared/governance/windows.js';
import {
  METRIC_BUDGET, METRIC_CONCURRENT, METRIC_NAMES, METRIC_REQUESTS, METRIC_TOKENS, type WorkerGroup, type WorkerKey,
} from '../../shared/governance/worker-state.js';
import {
  GOV_BUDGET_REQUESTS, GOV_KEY_BUDGET_REQUESTS, GOV_KEY_MINUTE_REQUESTS, GOV_KEY_MINUTE_TOKENS, GOV_REFUSED,
  GOV_REQUESTS, GOV_TOKENS, type GovernanceCounters,
} from '../../shared/sab/index.js';
import type { AdmissionKey } from './key-table.js';
import { requestsUnderBudget } from './price.js';
import { Refusal } from './refusal.js';

function bucketName(group: string, window: number, metric: number): string {
  const w = metric === METRIC_CONCURRENT ? 'concurrent' : WINDOW_NAMES[window]!;
  return `group:${group}@${w}`;
}

function refuseGroup(group: WorkerGroup, metric: number, window: number, max: number, nowSec: number): Refusal {
  const windowName = metric === METRIC_CONCURRENT ? 'in flight' : WINDOW_NAMES[window]!;
  const bucket = bucketName(group.name, window, metric);
  const message = `limit reached: bucket ${bucket} (group "${group.name}", metric ${METRIC_NAMES[metric]}, window ${windowName}) is at its max of ${max}`;
  if (metric === METRIC_BUDGET) return new Refusal('insufficient_quota', message, undefined, bucket);
  if (metric === METRIC_CONCURRENT) return new Refusal('rate_limited', message, 1, bucket);
  return new Refusal('rate_limited', message, secondsToWindowEnd(window, nowSec) ?? 86_400, bucket);
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
export function reserve(c: GovernanceCounters, entry: AdmissionKey, tags: readonly number[], nowSec: number): Refusal | null {
  return walk(c, entry, tags, nowSec, -1);
}

/** The admission walk. With `undoSteps` >= 0 it gives back the first `undoSteps` reservations
 * instead of making them (same order, same tags). */
function walk(c: GovernanceCounters, entry: AdmissionKey, tags: readonly number[], nowSec: number, undoSteps: number): Refusal | null {
  const undo = undoSteps >= 0;
  let step = 0;
  const chain = entry.chain;
  const prices = entry.prices;
  for (let gi = 0; gi < chain.length; gi++) {
    const g = chain[gi]!;
    for (const limit of g.limits) {
      if (undo && step >= undoSteps) return null;
      const w = limit.window;
      switch (limit.metric) {
        case METRIC_REQUESTS: {
          const at = c.groupIndex(g.slot, w, GOV_REQUESTS);
          if (undo) c.refund(at, tags[w]!, 1);
          else if (c.tryReserve(at, tags[w]!, 1, limit.max) === GOV_REFUSED) return fail(c, entry, tags, nowSec, step, refuseGroup(g, METRIC_REQUESTS, w, limit.max, nowSec));
          break;
        }
        case METRIC_TOKENS: {
          const at = c.groupIndex(g.slot, w, GOV_TOKENS);
          if (!undo && c.tryReserve(at, tags[w]!, 0, limit.max) === GOV_REFUSED) return fail(c, entry, tags, nowSec, step, refuseGroup(g, METRIC_TOKENS, w, limit.max, nowSec));
          break;
        }
        case METRIC_BUDGET: {
          const at = c.groupIndex(g.slot, w, GOV_BUDGET_REQUESTS);
          if (undo) c.refund(at, tags[w]!, 1);
          else {
            const p = prices[gi]!;
            const cap = requestsUnderBudget(limit.max, c.groupTokenSpend(g.slot, w, tags[w]!, p.rates), p.feeMicros);
            if (c.tryReserve(at, tags[w]!, 1, cap) === GOV_REFUSED) return fail(c, entry, tags, nowSec, step, refuseGroup(g, METRIC_BUDGET, w, limit.max, nowSec));
          }
          break;
        }
        case METRIC_CONCURRENT:
          if (undo) c.leave(g.slot);
          else if (!c.tryEnter(g.slot, limit.max)) return fail(c, entry, tags, nowSec, step, refuseGroup(g, METRIC_CONCURRENT, w, limit.max, nowSec));
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
    return fail(c, entry, tags, nowSec, step, refuseKey(key, `rpm_limit`, WINDOW_MINUTE, key.rpm, nowSec, false));
  }
  step++;
  if (undo && step >= undoSteps) return null;
  if (!undo && key.tpm >= 0 && c.tryReserve(c.keyIndex(slot, GOV_KEY_MINUTE_TOKENS), minute, 0, key.tpm) === GOV_REFUSED) {
    return fail(c, entry, tags, nowSec, step, refuseKey(key, `tpm_limit`, WINDOW_MINUTE, key.tpm, nowSec, false));
  }
  step++;
  if (undo && step >= undoSteps) return null;
  // Key budget, last: nothing after it can refuse, so it is never given back. Requests are
  // counted here even uncapped (GET /keys/{id}/usage and the spend gauges read them).
  if (undo) return null;
  const price = entry.prices.length > 0 ? entry.prices[0]! : null;
  const fee = price === null ? 0 : price.feeMicros;
  const cap = key.budgetMicros < 0 ? -1 : requestsUnderBudget(key.budgetMicros, c.keyTokenSpend(slot, budget, price === null ? null : price.rates), fee);
  if (c.tryReserve(c.keyIndex(slot, GOV_KEY_BUDGET_REQUESTS), budget, 1, cap) === GOV_REFUSED) {
    return fail(c, entry, tags, nowSec, step, refuseKey(key, `max_budget_cents`, key.budgetWindow, key.budgetMicros / 10_000, nowSec, true));
  }
  c.markKeyDirty(slot);
  return null;
}

function fail(c: GovernanceCounters, entry: AdmissionKey, tags: readonly number[], nowSec: number, step: number, refusal: Refusal): Refusal {
  if (step > 0) walk(c, entry, tags, nowSec, step);
  return refusal;
}

