// The metrics part of a compiled config: the shared-memory slot of every metric series known
// up front, and whether /metrics is mounted. Every series is registered whatever the export
// config says, so counting on the request path never depends on it and a later apply that
// adds a prometheus export shows counts from process start.
import type { CompiledMetrics, PoolMetricSlots, SlotAssigner } from '../../shared/config/compiled.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import {
  BILLING_TRUNCATED_TOTAL, FILE_LOGS_DROPPED_TOTAL, REQUEST_DURATION_BOUNDS, REQUEST_DURATION_SECONDS, REQUEST_DURATION_SUM_SCALE,
  REQUEST_OUTCOME_NAMES, REQUESTS_TOTAL, ROUTE_POLICY_SELECTIONS_TOTAL, TRANSLATIONS_REFUSED_TOTAL, TRANSLATIONS_TOTAL,
  UPSTREAM_ATTEMPTS_TOTAL, WEBHOOK_LOGS_DROPPED_TOTAL, WEIGHTED_POLICY, seriesKey,
} from '../../shared/metrics/catalog.js';
import { REFUSAL_REASONS } from '../../shared/protocols/refusal.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';

const COUNTER = { kind: 'counter' } as const;
const DURATION = { kind: 'histogram', bounds: REQUEST_DURATION_BOUNDS, sumScale: REQUEST_DURATION_SUM_SCALE } as const;

export function compileMetrics(config: DeploymentConfig, slots: SlotAssigner): CompiledMetrics {
  const translations: number[] = [];
  // Index from * 6 + to (translationIndex); same-protocol pairs keep their place unused.
  for (const from of PROTOCOL_NAMES) {
    for (const to of PROTOCOL_NAMES) translations.push(slots.metricSeries(seriesKey(TRANSLATIONS_TOTAL, [from, to]), COUNTER));
  }
  const translationsRefused: number[] = [];
  // Index (from * 6 + to) * reasons + reason (refusalIndex).
  for (const from of PROTOCOL_NAMES) {
    for (const to of PROTOCOL_NAMES) {
      for (const reason of REFUSAL_REASONS) translationsRefused.push(slots.metricSeries(seriesKey(TRANSLATIONS_REFUSED_TOTAL, [from, to, reason]), COUNTER));
    }
  }
  return {
    prometheus: prometheusExport(config),
    translations,
    translationsRefused,
    billingTruncated: slots.metricSeries(seriesKey(BILLING_TRUNCATED_TOTAL), COUNTER),
    direct: poolMetricSlots(slots, DIRECT_POOL_LABEL, false),
    webhookLogsDropped: slots.metricSeries(seriesKey(WEBHOOK_LOGS_DROPPED_TOTAL), COUNTER),
    fileLogsDropped: slots.metricSeries(seriesKey(FILE_LOGS_DROPPED_TOTAL), COUNTER),
  };
}

/**
 * A pool's request series: 6 protocols x 4 outcomes, a duration histogram per protocol, and
 * the built-in `weighted` policy's selections (a pool only: direct routes select nothing).
 * Route-policy rejections are registered by whoever adds a rejecting policy (the gate hooks),
 * under routePolicyRejectionName(policy, status).
 */
export function poolMetricSlots(slots: SlotAssigner, pool: string, routed = true): PoolMetricSlots {
  const requests: number[] = [];
  const duration: number[] = [];
  for (const protocol of PROTOCOL_NAMES) {
    for (const outcome of REQUEST_OUTCOME_NAMES) requests.push(slots.metricSeries(seriesKey(REQUESTS_TOTAL, [protocol, pool, outcome]), COUNTER));
    duration.push(slots.metricSeries(seriesKey(REQUEST_DURATION_SECONDS, [protocol, pool]), DURATION));
  }
  const policySelections: Record<string, number> = {};
  if (routed) policySelections[WEIGHTED_POLICY] = slots.metricSeries(seriesKey(ROUTE_POLICY_SELECTIONS_TOTAL, [pool, WEIGHTED_POLICY]), COUNTER);
  return { requests, duration, policySelections, policyRejections: {} };
}

/** gateway_upstream_attempts_total{pool, lane} ("" pool = direct routes). */
export function attemptSlot(slots: SlotAssigner, pool: string, lane: string): number {
  return slots.metricSeries(seriesKey(UPSTREAM_ATTEMPTS_TOTAL, [pool, lane]), COUNTER);
}

/** The first `module: prometheus` instance; load already checked its buffer_seconds. */
function prometheusExport(config: DeploymentConfig): CompiledMetrics['prometheus'] {
  for (const instance of Object.values(config.export ?? {})) {
    if (instance.module === 'prometheus') return { bufferSeconds: Number(instance.settings.buffer_seconds) };
  }
  return null;
}
