// Store records -> what workers admit with (src/shared/governance/worker-state.ts).
import type { GroupRecord, KeyRecord } from '../store/records.js';
import { budgetWindowKind, groupWindowKind } from '../../shared/governance/windows.js';
import {
  METRIC_BUDGET,
  METRIC_CONCURRENT,
  METRIC_REQUESTS,
  METRIC_TOKENS,
  markLaneTokenLimits,
  type WorkerGroup,
  type WorkerKey,
} from '../../shared/governance/worker-state.js';

const METRICS: Readonly<Record<string, number>> = { requests: METRIC_REQUESTS, tokens: METRIC_TOKENS, budget: METRIC_BUDGET, concurrent: METRIC_CONCURRENT };

/** Cents of a key's max_budget_cents in micro-units (1 cent = 10^4 micros). */
export const MICROS_PER_CENT = 10_000;

export function workerKey(key: KeyRecord, slot: number): WorkerKey {
  const out = fillWorkerKey(emptyWorkerKey(), key, slot);
  out.pools = [...key.allowed_pools];
  return out;
}

export function emptyWorkerKey(): WorkerKey {
  return { id: '', jti: '', enabled: false, group: null, pools: [], rpm: -1, tpm: -1, budgetMicros: -1, budgetWindow: 0, slot: 0, awsAccessKeyId: null };
}

/**
 * Refill `out` with `key`. Its pools are the record's own list, not a copy: for a reader that
 * copies what it keeps (keyColumns, whose columns are encoded into a message at once), so the
 * boot snapshot of a million keys makes no object per key.
 */
export function fillWorkerKey(out: WorkerKey, key: KeyRecord, slot: number): WorkerKey {
  out.id = key.id;
  out.jti = key.jti;
  out.enabled = key.enabled;
  out.group = key.group;
  out.pools = key.allowed_pools;
  out.rpm = key.rpm_limit ?? -1;
  out.tpm = key.tpm_limit ?? -1;
  out.budgetMicros = key.max_budget_cents === null ? -1 : key.max_budget_cents * MICROS_PER_CENT;
  out.budgetWindow = budgetWindowKind(key.budget_period);
  out.slot = slot;
  out.awsAccessKeyId = key.aws_access_key_id;
  return out;
}

export function workerGroup(group: GroupRecord, slot: number): WorkerGroup {
  return {
    name: group.name,
    parent: group.parent,
    enabled: group.enabled,
    feeMicros: group.per_request_fee_micros,
    rateCard: group.rate_card.map((r) => ({ ...r })),
    limits: markLaneTokenLimits(group.limits.map((l) => ({ metric: METRICS[l.metric]!, window: groupWindowKind(l.window), max: l.max, laneTokens: false }))),
    defaultOutput: group.default_output_reservation ?? -1,
    slot,
  };
}
