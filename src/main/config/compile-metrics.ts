// The metrics part of a compiled config: the shared-memory slot of every metric series known
// up front, and whether /metrics is mounted. Every series is registered whatever the export
// config says, so counting on the request path never depends on it and a later apply that
// adds a prometheus export shows counts from process start.
import type { CompiledHook, CompiledMetrics, LatencySlots, PoolMetricSlots, SlotAssigner, ThreadRuntimeSlots } from '../../shared/config/compiled.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import {
  BILLING_TRUNCATED_TOTAL,
  FILE_LOGS_DROPPED_TOTAL,
  RESERVATION_ESTIMATE_BOUNDS,
  RESERVATION_ESTIMATE_RATIO,
  REQUEST_DURATION_BOUNDS,
  REQUEST_DURATION_SECONDS,
  REQUEST_DURATION_SUM_SCALE,
  REQUEST_OUTCOME_NAMES,
  REQUESTS_TOTAL,
  ROUTE_POLICY_REJECTIONS_TOTAL,
  ROUTE_POLICY_SELECTIONS_TOTAL,
  TRANSLATIONS_REFUSED_TOTAL,
  TRANSLATIONS_TOTAL,
  THREAD_BUSY_RATIO,
  THREAD_EVENT_LOOP_DELAY_SECONDS,
  THREAD_HEAP_USED_BYTES,
  UPSTREAM_ATTEMPTS_TOTAL,
  WEBHOOK_LOGS_DROPPED_TOTAL,
  WEIGHTED_POLICY,
  routePolicyRejectionName,
  seriesKey,
  threadLabel,
  ATTEMPT_DURATION_BOUNDS,
  FIRST_TOKEN_BOUNDS,
  OUTPUT_TOKENS_PER_SECOND,
  PER_OUTPUT_TOKEN_BOUNDS,
  SECONDS_SUM_SCALE,
  TIME_PER_OUTPUT_TOKEN_SECONDS,
  SPAN_DROP_REASONS,
  TIME_TO_FIRST_TOKEN_SECONDS,
  TOKENS_PER_SECOND_BOUNDS,
  TRACE_SPANS_DROPPED_TOTAL,
  TOKENS_PER_SECOND_SUM_SCALE,
  UPSTREAM_ATTEMPT_DURATION_SECONDS,
} from '../../shared/metrics/catalog.js';
import { REFUSAL_REASONS } from '../../shared/protocols/refusal.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';

const COUNTER = { kind: 'counter' } as const;
const GAUGE = { kind: 'gauge' } as const;
const DURATION = { kind: 'histogram', bounds: REQUEST_DURATION_BOUNDS, sumScale: REQUEST_DURATION_SUM_SCALE } as const;
const FIRST_TOKEN = { kind: 'histogram', bounds: FIRST_TOKEN_BOUNDS, sumScale: SECONDS_SUM_SCALE } as const;
const PER_OUTPUT_TOKEN = { kind: 'histogram', bounds: PER_OUTPUT_TOKEN_BOUNDS, sumScale: SECONDS_SUM_SCALE } as const;
const TOKENS_PER_SECOND = { kind: 'histogram', bounds: TOKENS_PER_SECOND_BOUNDS, sumScale: TOKENS_PER_SECOND_SUM_SCALE } as const;
const ATTEMPT_DURATION = { kind: 'histogram', bounds: ATTEMPT_DURATION_BOUNDS, sumScale: SECONDS_SUM_SCALE } as const;
const ESTIMATE_RATIO = { kind: 'histogram', bounds: RESERVATION_ESTIMATE_BOUNDS, sumScale: 1000 } as const;

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
    threads: threadRuntimeSlots(slots),
    traceSpansDropped: SPAN_DROP_REASONS.map((reason) => slots.metricSeries(seriesKey(TRACE_SPANS_DROPPED_TOTAL, [reason]), COUNTER)),
    reservationEstimate: {
      input: slots.metricSeries(seriesKey(RESERVATION_ESTIMATE_RATIO, ['input']), ESTIMATE_RATIO),
      output: slots.metricSeries(seriesKey(RESERVATION_ESTIMATE_RATIO, ['output']), ESTIMATE_RATIO),
    },
  };
}

function threadRuntimeSlots(slots: SlotAssigner): ThreadRuntimeSlots[] {
  const out: ThreadRuntimeSlots[] = [];
  for (let holder = 0; holder < slots.holders; holder++) {
    const thread = threadLabel(holder);
    out.push({
      heapKib: slots.metricSeries(seriesKey(THREAD_HEAP_USED_BYTES, [thread]), GAUGE),
      loopP99Us: slots.metricSeries(seriesKey(THREAD_EVENT_LOOP_DELAY_SECONDS, [thread, 'p99']), GAUGE),
      loopMaxUs: slots.metricSeries(seriesKey(THREAD_EVENT_LOOP_DELAY_SECONDS, [thread, 'max']), GAUGE),
      busyPpm: slots.metricSeries(seriesKey(THREAD_BUSY_RATIO, [thread]), GAUGE),
    });
  }
  return out;
}

/** The route policies a pool's gates can decide by (gatePolicies). */
export interface GatePolicies {
  /** Policies that can order the members: gate names, and `first` (an on_error terminal). */
  selections: readonly string[];
  /** (policy, status) pairs that can reject: each gate with every 4xx, `reject` (on_error) with 503. */
  rejections: readonly (readonly [string, number])[];
}

const NO_GATE_POLICIES: GatePolicies = { selections: [], rejections: [] };
/** A gate's reject reply carries a 4xx (anything else is answered 403, docs/hooks.md). */
const GATE_REJECT_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i);
/** The status of the `reject` on_error terminal (pool-gate.ts). */
const ON_ERROR_REJECT_STATUS = 503;

/**
 * Every policy that can decide for a pool whose gates are `gates` (indexes into `hooks`): the
 * gates, the hooks their on_error chains fall back to, and the terminals `first` and `reject`
 * those chains end in. `weighted` and `nothing` leave the order to the router, which counts
 * `weighted` itself.
 */
export function gatePolicies(hooks: readonly CompiledHook[], gates: readonly number[]): GatePolicies {
  if (gates.length === 0) return NO_GATE_POLICIES;
  const names = new Set<string>();
  let first = false;
  let reject = false;
  const seen = new Set<number>();
  for (const gate of gates) {
    for (let i: number | null = gate; i !== null && !seen.has(i); ) {
      seen.add(i);
      const hook: CompiledHook = hooks[i]!;
      names.add(hook.name);
      const onError = hook.onError;
      if ('hook' in onError) i = onError.hook;
      else {
        if (onError.terminal === 'first') first = true;
        if (onError.terminal === 'reject') reject = true;
        i = null;
      }
    }
  }
  const selections = [...names];
  if (first) selections.push('first');
  const rejections: [string, number][] = [];
  for (const name of names) for (const status of GATE_REJECT_STATUSES) rejections.push([name, status]);
  if (reject) rejections.push(['reject', ON_ERROR_REJECT_STATUS]);
  return { selections, rejections };
}

/**
 * A pool's request series: 6 protocols x 4 outcomes, a duration histogram per protocol, the
 * built-in `weighted` policy's selections (a pool only: direct routes select nothing), and
 * the selections and rejections of its gate policies (gatePolicies).
 */
export function poolMetricSlots(slots: SlotAssigner, pool: string, routed = true, gates: GatePolicies = NO_GATE_POLICIES): PoolMetricSlots {
  const requests: number[] = [];
  const duration: number[] = [];
  for (const protocol of PROTOCOL_NAMES) {
    for (const outcome of REQUEST_OUTCOME_NAMES) requests.push(slots.metricSeries(seriesKey(REQUESTS_TOTAL, [protocol, pool, outcome]), COUNTER));
    duration.push(slots.metricSeries(seriesKey(REQUEST_DURATION_SECONDS, [protocol, pool]), DURATION));
  }
  const policySelections: Record<string, number> = {};
  if (routed) policySelections[WEIGHTED_POLICY] = slots.metricSeries(seriesKey(ROUTE_POLICY_SELECTIONS_TOTAL, [pool, WEIGHTED_POLICY]), COUNTER);
  for (const policy of gates.selections) policySelections[policy] = slots.metricSeries(seriesKey(ROUTE_POLICY_SELECTIONS_TOTAL, [pool, policy]), COUNTER);
  const policyRejections: Record<string, number> = {};
  for (const [policy, status] of gates.rejections) {
    policyRejections[routePolicyRejectionName(policy, status)] = slots.metricSeries(
      seriesKey(ROUTE_POLICY_REJECTIONS_TOTAL, [pool, policy, String(status)]),
      COUNTER,
    );
  }
  return { requests, duration, policySelections, policyRejections };
}

/** gateway_upstream_attempts_total{pool, lane} ("" pool = direct routes). */
export function attemptSlot(slots: SlotAssigner, pool: string, lane: string): number {
  return slots.metricSeries(seriesKey(UPSTREAM_ATTEMPTS_TOTAL, [pool, lane]), COUNTER);
}

/**
 * The latency histograms of one (pool, lane), a slot per ingress protocol each ("" pool =
 * direct routes): about 5 KiB of shared memory per pool member.
 */
export function latencySlots(slots: SlotAssigner, pool: string, lane: string): LatencySlots {
  const firstToken: number[] = [];
  const perOutputToken: number[] = [];
  const tokensPerSecond: number[] = [];
  for (const protocol of PROTOCOL_NAMES) {
    const labels = [protocol, pool, lane];
    firstToken.push(slots.metricSeries(seriesKey(TIME_TO_FIRST_TOKEN_SECONDS, labels), FIRST_TOKEN));
    perOutputToken.push(slots.metricSeries(seriesKey(TIME_PER_OUTPUT_TOKEN_SECONDS, labels), PER_OUTPUT_TOKEN));
    tokensPerSecond.push(slots.metricSeries(seriesKey(OUTPUT_TOKENS_PER_SECOND, labels), TOKENS_PER_SECOND));
  }
  return { firstToken, perOutputToken, tokensPerSecond };
}

/** gateway_upstream_attempt_duration_seconds{lane}. */
export function attemptDurationSlot(slots: SlotAssigner, lane: string): number {
  return slots.metricSeries(seriesKey(UPSTREAM_ATTEMPT_DURATION_SECONDS, [lane]), ATTEMPT_DURATION);
}

/** The first `module: prometheus` instance; load already checked its buffer_seconds. */
function prometheusExport(config: DeploymentConfig): CompiledMetrics['prometheus'] {
  for (const instance of Object.values(config.export ?? {})) {
    if (instance.module === 'prometheus') return { bufferSeconds: Number(instance.settings.buffer_seconds) };
  }
  return null;
}
