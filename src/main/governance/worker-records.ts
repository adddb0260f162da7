// Store records -> what workers admit with (src/shared/governance/worker-state.ts).
import type { GroupRecord, KeyRecord } from '../store/records.js';
import { budgetWindowKind, groupWindowKind } from '../../shared/governance/windows.js';
import { METRIC_BUDGET, METRIC_CONCURRENT, METRIC_REQUESTS, METRIC_TOKENS, type WorkerGroup, type WorkerKey } from '../../shared/governance/worker-state.js';

const METRICS: Readonly<Record<string, number>> = { requests: METRIC_REQUESTS, tokens: METRIC_TOKENS, budget: METRIC_BUDGET, concurrent: METRIC_CONCURRENT };

/** Cents of a key's max_budget_cents in micro-units (1 cent = 10^4 micros). */
export const MICROS_PER_CENT = 10_000;

export function workerKey(key: KeyRecord, slot: number): WorkerKey {
  return {
    id: key.id,
    jti: key.jti,
    enabled: key.enabled,
    group: key.group,
    pools: [...key.allowed_pools],
    rpm: key.rpm_limit ?? -1,
    tpm: key.tpm_limit ?? -1,
    budgetMicros: key.max_budget_cents === null ? -1 : key.max_budget_cents * MICROS_PER_CENT,
    budgetWindow: budgetWindowKind(key.budget_period),
    slot,
    awsAccessKeyId: key.aws_access_key_id,
  };
}

export function workerGroup(group: GroupRecord, slot: number): WorkerGroup {
  return {
    name: group.name,
    parent: group.parent,
    enabled: group.enabled,
    feeMicros: group.per_request_fee_micros,
    rateCard: group.rate_card.map((r) => ({ ...r })),
    limits: group.limits.map((l) => ({ metric: METRICS[l.metric]!, window: groupWindowKind(l.window), max: l.max })),
    slot,
  };
}
