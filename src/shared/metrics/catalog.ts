// The gateway's Prometheus metric families: name, help and label names, and the key each
// series is registered under in shared memory. Main registers the series when it compiles a
// config (SlotRegistry.metricSeries(seriesKey(...))); workers count into them and render them
// at /metrics. One table, so the names the two sides use cannot drift apart.
import { PROTOCOL_NAMES, type ProtocolName } from '../model/types.js';
import { REFUSAL_REASONS, type RefusalReason } from '../protocols/refusal.js';

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
}

export const TRANSLATIONS_TOTAL: MetricFamily = {
  name: 'gateway_translations_total',
  help: 'Requests translated from the ingress protocol (from) to a lane of another protocol (to).',
  labelNames: ['from', 'to'],
};

export const TRANSLATIONS_REFUSED_TOTAL: MetricFamily = {
  name: 'gateway_translations_refused_total',
  help: 'Cross-protocol requests refused with a 400 rather than changed: a content part (reason content_part) or a setting (reason parameter) the lane protocol (to) cannot honour.',
  labelNames: ['from', 'to', 'reason'],
};

export const BILLING_TRUNCATED_TOTAL: MetricFamily = {
  name: 'gateway_billing_truncated_total',
  help: 'Same-protocol non-stream responses over the translate-body cap, passed through unparsed and billed zero tokens.',
  labelNames: [],
};

export const WEBHOOK_LOGS_DROPPED_TOTAL: MetricFamily = {
  name: 'gateway_webhook_logs_dropped_total',
  help: 'Request-log records shed because the webhook sink had max_inflight deliveries in flight.',
  labelNames: [],
};

export const FILE_LOGS_DROPPED_TOTAL: MetricFamily = {
  name: 'gateway_file_logs_dropped_total',
  help: 'Request-log records shed because the file sink had max_pending records queued for the disk.',
  labelNames: [],
};

export const HOOK_TAPS_SHED_TOTAL: MetricFamily = {
  name: 'gateway_hook_taps_shed_total',
  help: 'Tap events not sent to a tap hook (hook="name") because its connection was down or its queue was full: a tap never delays a request, so what it cannot take is dropped and counted here.',
  labelNames: ['hook'],
};

export const THREAD_HEAP_USED_BYTES: MetricFamily = {
  name: 'gateway_thread_heap_used_bytes',
  help: 'V8 heap in use per thread (thread="main" or "worker-N"), sampled every 5 s.',
  labelNames: ['thread'],
};

export const THREAD_EVENT_LOOP_DELAY_SECONDS: MetricFamily = {
  name: 'gateway_thread_event_loop_delay_seconds',
  help: 'Event-loop delay per thread over the last 5 s sample: its 99th percentile (stat="p99") and its maximum (stat="max").',
  labelNames: ['thread', 'stat'],
};

export const THREAD_BUSY_RATIO: MetricFamily = {
  name: 'gateway_thread_busy_ratio',
  help: "Share of the last 5 s sample the thread's event loop spent on work (0..1): event-loop utilization minus the time the idle spin polled with nothing to do. The figure to scale on; a spinning core's CPU reads near 1 whatever the work.",
  labelNames: ['thread'],
};

/** The `thread` label of a shared-memory holder: 0 is the main thread, n + 1 is worker n. */
export function threadLabel(holder: number): string {
  return holder === 0 ? 'main' : `worker-${holder - 1}`;
}

/**
 * The shared-memory key of one series: the family name and its label values in the family's
 * label order, e.g. `gateway_translations_total{from="openai",to="gemini"}`. Stable for the
 * life of the process, so a series keeps its slot (and its count) across config applies.
 */
export function seriesKey(family: MetricFamily, labelValues: readonly string[] = []): string {
  if (labelValues.length !== family.labelNames.length) {
    throw new Error(`${family.name} takes ${family.labelNames.length} label values, got ${labelValues.length}`);
  }
  if (labelValues.length === 0) return family.name;
  const pairs = family.labelNames.map((label, i) => `${label}=${JSON.stringify(labelValues[i])}`);
  return `${family.name}{${pairs.join(',')}}`;
}

/** Position of each protocol in PROTOCOL_NAMES, for slot tables indexed by protocol. */
export const PROTOCOL_INDEX: Readonly<Record<ProtocolName, number>> = Object.freeze(
  Object.fromEntries(PROTOCOL_NAMES.map((name, i) => [name, i])) as Record<ProtocolName, number>,
);

const PROTOCOL_COUNT = PROTOCOL_NAMES.length;

/** Index of the (from, to) pair in CompiledMetrics.translations: from * 6 + to. */
export function translationIndex(from: ProtocolName, to: ProtocolName): number {
  return PROTOCOL_INDEX[from] * PROTOCOL_COUNT + PROTOCOL_INDEX[to];
}

/** Index of the (from, to, reason) series in CompiledMetrics.translationsRefused. */
export function refusalIndex(from: ProtocolName, to: ProtocolName, reason: RefusalReason): number {
  return translationIndex(from, to) * REFUSAL_REASONS.length + REFUSAL_REASONS.indexOf(reason);
}

// ---- requests, attempts and their latency (counted by the request's end and the router) ----

export const REQUESTS_TOTAL: MetricFamily = {
  name: 'gateway_requests_total',
  help: 'Requests by ingress protocol, pool ("" = a direct route or no target) and outcome (ok, client_error, exhausted, error).',
  labelNames: ['ingress_protocol', 'pool', 'outcome'],
};

export const UPSTREAM_ATTEMPTS_TOTAL: MetricFamily = {
  name: 'gateway_upstream_attempts_total',
  help: 'Upstream attempts (a permit won and a request sent), per pool ("" = direct route) and lane.',
  labelNames: ['pool', 'lane'],
};

export const UPSTREAM_FAILURES_TOTAL: MetricFamily = {
  name: 'gateway_upstream_failures_total',
  help: 'Requests that ended in an upstream failure, per pool, lane of the last attempt and failure disposition.',
  labelNames: ['pool', 'lane', 'disposition'],
};

export const REQUEST_DURATION_SECONDS: MetricFamily = {
  name: 'gateway_request_duration_seconds',
  help: 'Time from the request arriving to its end (last byte or refusal), by ingress protocol and pool.',
  labelNames: ['ingress_protocol', 'pool'],
};

/** Upper bounds of gateway_request_duration_seconds (seconds); the sum is kept in microseconds. */
export const REQUEST_DURATION_BOUNDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
export const REQUEST_DURATION_SUM_SCALE = 1_000_000;

/** The spec's request outcomes, indexed by RequestOutcome. */
export const REQUEST_OUTCOME_NAMES = ['ok', 'client_error', 'exhausted', 'error'] as const;
const REQUEST_OUTCOME_COUNT = REQUEST_OUTCOME_NAMES.length;
export const enum RequestOutcome {
  Ok = 0,
  ClientError = 1,
  Exhausted = 2,
  Error = 3,
}

/** Index of (ingress protocol, outcome) in a requestSlots table. */
export function requestIndex(protocol: number, outcome: RequestOutcome): number {
  return protocol * REQUEST_OUTCOME_COUNT + outcome;
}

// ---- lanes and pools (gauges read at scrape time from the routing words) ----

export const LANE_STATE: MetricFamily = {
  name: 'gateway_lane_state',
  help: 'Breaker state of the (pool, lane) cell ("" pool = the lane-default cell of direct routes): 0 = Closed, 1 = HalfOpen, 2 = Open.',
  labelNames: ['pool', 'lane'],
};

export const LANE_AVAILABLE: MetricFamily = {
  name: 'gateway_lane_available',
  help: '1 when the (pool, lane) cell would admit a request now, 0 when unavailable for any reason.',
  labelNames: ['pool', 'lane'],
};

export const LANE_RECOVERY_HINT_MS: MetricFamily = {
  name: 'gateway_lane_recovery_hint_ms',
  help: 'Milliseconds until the (pool, lane) cell is expected to admit again; 0 when available or with no self-recovery.',
  labelNames: ['pool', 'lane'],
};

export const LANE_INFLIGHT: MetricFamily = {
  name: 'gateway_lane_inflight',
  help: 'Requests in flight on the lane (lane-global: the same value under every pool).',
  labelNames: ['pool', 'lane'],
};

export const LANE_AVAILABLE_PERMITS: MetricFamily = {
  name: 'gateway_lane_available_permits',
  help: 'Free concurrency permits of the lane (max_concurrent minus in flight); no sample for unbounded lanes.',
  labelNames: ['pool', 'lane'],
};

export const POOL_QUEUED: MetricFamily = {
  name: 'gateway_pool_queued',
  help: 'Requests parked in the on_exhausted queue wait of the pool (0: no queue policy exists yet).',
  labelNames: ['pool'],
};

// ---- route policies (the router's gate seam) ----

export const ROUTE_POLICY_SELECTIONS_TOTAL: MetricFamily = {
  name: 'gateway_route_policy_selections_total',
  help: 'Routing decisions per pool by the policy that ordered the members (weighted = the built-in smooth weighted round robin).',
  labelNames: ['pool', 'policy'],
};

export const ROUTE_POLICY_REJECTIONS_TOTAL: MetricFamily = {
  name: 'gateway_route_policy_rejections_total',
  help: 'Requests a route policy (gate) rejected with a 4xx before any upstream dispatch, per pool, policy and status.',
  labelNames: ['pool', 'policy', 'status'],
};

/** The key of a rejection series in PoolMetricSlots.policyRejections. */
export function routePolicyRejectionName(policy: string, status: number): string {
  return `${policy} ${status}`;
}

/** The built-in policy: counted on the first selection of every pool-routed request. */
export const WEIGHTED_POLICY = 'weighted';

// ---- governance (gauges read at scrape time from the governance counters) ----

export const KEY_SPEND_CENTS: MetricFamily = {
  name: 'gateway_key_spend_cents',
  help: 'Spend of the virtual key in its current budget window, in cents, by key id and its mint labels group and budget_period (at most 10000 keys, by spend; the rest summed under key="_other").',
  labelNames: ['key', 'group', 'budget_period'],
};

export const KEY_TOKENS_TOTAL: MetricFamily = {
  name: 'gateway_key_tokens_total',
  help: 'Tokens of the virtual key in its current budget window (the same keys and labels as gateway_key_spend_cents).',
  labelNames: ['key', 'group', 'budget_period'],
};

export const BUCKET_SPEND_CENTS: MetricFamily = {
  name: 'gateway_bucket_spend_cents',
  help: 'Spend of the group bucket in its current window, in cents (bucket = group:<name>@<window>).',
  labelNames: ['bucket', 'group', 'window'],
};

export const BUCKET_BUDGET_REMAINING_CENTS: MetricFamily = {
  name: 'gateway_bucket_budget_remaining_cents',
  help: "Budget left in the group bucket's current window, in cents; only buckets with a budget limit.",
  labelNames: ['bucket', 'group', 'window'],
};

export const BUCKET_TOKENS: MetricFamily = {
  name: 'gateway_bucket_tokens',
  help: "Tokens counted in the group bucket's current window, by model and tier.",
  labelNames: ['bucket', 'group', 'window', 'model', 'tier'],
};

export const BUCKET_RESERVED_TOKENS: MetricFamily = {
  name: 'gateway_bucket_reserved_tokens',
  help: "Tokens reserved by the requests in flight under the group bucket's tokens limit in its current window (on a store several nodes share: with the other nodes' as of their last flush).",
  labelNames: ['bucket', 'group', 'window'],
};

export const BUCKET_RESERVED_CENTS: MetricFamily = {
  name: 'gateway_bucket_reserved_cents',
  help: "Spend reserved by the requests in flight under the group bucket's budget limit in its current window, in cents (fee and estimated tokens).",
  labelNames: ['bucket', 'group', 'window'],
};

export const RESERVATION_ESTIMATE_RATIO: MetricFamily = {
  name: 'gateway_reservation_estimate_ratio',
  help: 'Estimate reserved at admission over what the upstream reported at the end, per request with a tokens or budget reservation: part="input" (input tokens estimated from the body) and part="output" (the output cap reserved); 1 is exact, above 1 over-reserved, below 1 the estimate was low.',
  labelNames: ['part'],
};

/** Upper bounds of gateway_reservation_estimate_ratio; the sum is kept in thousandths. */
export const RESERVATION_ESTIMATE_BOUNDS: readonly number[] = [0.25, 0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2, 3, 5, 10, 100];
export const RESERVATION_ESTIMATE_PARTS = ['input', 'output'] as const;

/** The windowed quantiles of gateway_request_duration_seconds (a summary: a histogram family
 * cannot carry quantiles in the text format), over the export's `buffer_seconds`. */
export const REQUEST_DURATION_WINDOW_SECONDS: MetricFamily = {
  name: 'gateway_request_duration_window_seconds',
  help: 'Quantiles of gateway_request_duration_seconds over the last buffer_seconds (estimated from its buckets, linear inside a bucket), by ingress protocol and pool.',
  labelNames: ['ingress_protocol', 'pool'],
};

export const REQUEST_DURATION_QUANTILES: readonly number[] = [0.5, 0.9, 0.99];

/** Most keys the gateway_key_* gauges show: past it, the keys with the highest spend are
 * shown and the rest are summed into one series with key="_other", group="". */
export const KEY_SERIES_CAP = 10_000;
export const OTHER_KEYS_LABEL = '_other';

// ---- latency the way LLM operators read it (counted by src/worker/metrics/latency-series.ts) ----

export const TIME_TO_FIRST_TOKEN_SECONDS: MetricFamily = {
  name: 'gateway_time_to_first_token_seconds',
  help: 'Time from the request arriving to the first byte of a successful answer written to the caller (a stream\'s first event; a whole body when not streamed), by ingress protocol, pool ("" = direct route) and lane.',
  labelNames: ['ingress_protocol', 'pool', 'lane'],
};

export const TIME_PER_OUTPUT_TOKEN_SECONDS: MetricFamily = {
  name: 'gateway_time_per_output_token_seconds',
  help: 'Streamed successful answers with two or more output tokens: the time from the first byte to the end divided by the output tokens after the first, by ingress protocol, pool and lane.',
  labelNames: ['ingress_protocol', 'pool', 'lane'],
};

export const OUTPUT_TOKENS_PER_SECOND: MetricFamily = {
  name: 'gateway_output_tokens_per_second',
  help: 'Successful answers with output tokens: output tokens divided by the time from the request arriving to its end, by ingress protocol, pool and lane.',
  labelNames: ['ingress_protocol', 'pool', 'lane'],
};

export const UPSTREAM_ATTEMPT_DURATION_SECONDS: MetricFamily = {
  name: 'gateway_upstream_attempt_duration_seconds',
  help: 'Time from an upstream attempt being sent to its end (the last byte relayed, or the failure), whatever its outcome, by lane.',
  labelNames: ['lane'],
};

/** Upper bounds (seconds) of the time to first token and of the attempt duration. */
export const FIRST_TOKEN_BOUNDS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
export const ATTEMPT_DURATION_BOUNDS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Upper bounds (seconds) of the time per output token: a fast model decodes in a few ms, a slow one in 100s. */
export const PER_OUTPUT_TOKEN_BOUNDS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2.5];
/** Upper bounds (tokens per second) of the output rate. */
export const TOKENS_PER_SECOND_BOUNDS: readonly number[] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000];
/** Sums are kept in microseconds (the times) and in thousandths of a token per second (the rate). */
export const SECONDS_SUM_SCALE = 1_000_000;
export const TOKENS_PER_SECOND_SUM_SCALE = 1_000;

// ---- traces (src/worker/tracing) ----

export const TRACE_SPANS_DROPPED_TOTAL: MetricFamily = {
  name: 'gateway_trace_spans_dropped_total',
  help: 'Spans not delivered to the OTLP trace export: shed because a worker already held max_queue_spans (reason queue_full: the collector falls behind), or in an export that failed (reason export_failed).',
  labelNames: ['reason'],
};

/** The reasons of gateway_trace_spans_dropped_total, indexed by SpanDropReason. */
export const SPAN_DROP_REASONS = ['queue_full', 'export_failed'] as const;
export const enum SpanDropReason {
  QueueFull = 0,
  ExportFailed = 1,
}
