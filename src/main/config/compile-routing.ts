// The routing part of a compiled config: per pool and lane, the shared-memory counter slots
// finish() and the router count into, and health probing with its floors.
import type { CompiledHealth, SlotAssigner } from '../../shared/config/compiled.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { DISPOSITION_NAMES, FAILOVER_REASON_NAMES } from '../../shared/routing/attempt-outcome.js';
import { dispositionKey, failoverKey, tripKey } from '../../shared/routing/series.js';

const COUNTER = { kind: 'counter' } as const;
const PROBE_FLOOR_MS = 1_000;

export function dispositionSlots(slots: SlotAssigner, pool: string, lane: string): number[] {
  return DISPOSITION_NAMES.map((d) => slots.metricSeries(dispositionKey(pool, lane, d), COUNTER));
}

export function failoverSlots(slots: SlotAssigner, pool: string): number[] {
  return FAILOVER_REASON_NAMES.map((r) => slots.metricSeries(failoverKey(pool, r), COUNTER));
}

export function tripSlot(slots: SlotAssigner, pool: string, lane: string): number {
  return slots.metricSeries(tripKey(pool, lane), COUNTER);
}

/** Interval and timeout are floored at 1 s (the spec's rule). */
export function compileHealth(config: DeploymentConfig): CompiledHealth {
  const health = config.health;
  return {
    mode: health?.mode ?? 'none',
    intervalMs: Math.max(PROBE_FLOOR_MS, Math.round((health?.interval_secs ?? 30) * 1000)),
    timeoutMs: Math.max(PROBE_FLOOR_MS, Math.round((health?.timeout_secs ?? 5) * 1000)),
  };
}
