// The compiled config snapshot: what the main thread sends every worker on boot and on each
// apply. Plain data (msgpackr-encodable): arrays and records, secrets already resolved.
// Indexes into `lanes`/`pools`/`providers` are positions in these arrays; `slot` fields are
// stable SharedArrayBuffer slots assigned by the main thread (see src/shared/sab), which
// survive an apply so counters and breaker cells carry over.
import type { CompiledBindings, CompiledIdentityProvider } from '../identity/identity.js';
import type { ProtocolName } from '../model/types.js';
import type { MetricSeriesSpec } from '../sab/slot-registry.js';
import type { EgressPolicy } from '../egress/policy.js';

export type CompiledAuth =
  | { mode: 'none' }
  | { mode: 'bearer'; token: string }
  | { mode: 'header'; header: string; value: string }
  | { mode: 'sigv4'; region: string; service: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { mode: 'jwt-bearer'; tokenUrl: string; clientEmail: string; privateKeyPem: string; scope: string; audience?: string }
  | { mode: 'oauth-client-credentials'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string };

export interface CompiledProvider {
  name: string;
  protocol: ProtocolName;
  /** Scheme + host + port, e.g. `http://127.0.0.1:9000` (one undici pool per origin). */
  origin: string;
  /** Path prefix of base_url without a trailing slash, e.g. `/v1` or ''. */
  basePath: string;
  auth: CompiledAuth;
  /** Static headers sent on every upstream request (e.g. anthropic-version). */
  headers: Record<string, string>;
  /** True when the key variable was empty at load: the lane fails auth on use. */
  missingKey: boolean;
  /** The provider's allow_metadata_hosts: denylisted hosts its connections may reach anyway. */
  allowMetadataHosts: string[];
}

export interface CompiledLane {
  /** The config key under `models:`. */
  name: string;
  provider: number;
  upstreamModel: string;
  /** 0 = unbounded. Lane-global across pools. */
  maxConcurrent: number;
  /** Lifetime request budget; 0 = none. */
  maxRequests: number;
  /** Output tokens reserved for a request that sets no cap (max_output_tokens); 0 = not set. */
  maxOutputTokens: number;
  /** Stable SAB slot of this lane's counters (permits, inflight, ok, err). */
  slot: number;
  /** Stable SAB slot of the lane-default breaker cell (direct routes, /stats). */
  defaultCellSlot: number;
  /** Counter slots of direct-route dispositions on this lane, indexed by Disposition. */
  directDispositionSlots: number[];
  /** Counter slot of trips of the lane-default cell. */
  directTripSlot: number;
  /** Counter slot of gateway_upstream_attempts_total{pool="",lane} (direct routes). */
  directAttemptSlot: number;
  /** The latency histograms of direct routes to this lane (pool ""). */
  directLatency: LatencySlots;
  /** Histogram slot of gateway_upstream_attempt_duration_seconds{lane}. */
  attemptDurationSlot: number;
}

export type OnExhausted = { action: 'reject' } | { action: 'least_bad' } | { action: 'fallback_pool'; pool: string };

export interface CompiledBreaker {
  trip: 'consecutive' | 'error_rate';
  consecutiveN: number;
  threshold: number;
  windowSecs: number;
  minRequests: number;
  baseCooldownSecs: number;
  maxCooldownSecs: number;
}

export interface CompiledPoolMember {
  lane: number;
  weight: number;
  /** SAB slot of the (pool, lane) breaker cell. */
  cellSlot: number;
  /** Counter slots of dispositions of requests whose last attempt was on this member, by Disposition. */
  dispositionSlots: number[];
  /** Counter slot of this cell's Closed-to-Open trips. */
  tripSlot: number;
  /** Counter slot of gateway_upstream_attempts_total{pool,lane}. */
  attemptSlot: number;
  /** The latency histograms of requests this member served. */
  latency: LatencySlots;
}

/**
 * Histogram slots of one (pool, lane)'s answers, each indexed by ingress protocol
 * (PROTOCOL_INDEX): gateway_time_to_first_token_seconds, gateway_time_per_output_token_seconds,
 * gateway_output_tokens_per_second (src/worker/metrics/latency-series.ts counts them).
 */
export interface LatencySlots {
  firstToken: number[];
  perOutputToken: number[];
  tokensPerSecond: number[];
}

export interface CompiledPool {
  name: string;
  members: CompiledPoolMember[];
  onExhausted: OnExhausted;
  maxHops: number;
  timeoutMs: number;
  /** Per-attempt deadline for the response head; 0 = only the request budget. */
  attemptTimeoutMs: number;
  breaker: CompiledBreaker;
  /** Counter slots of dispositions of requests that reached no lane (exhausted), by Disposition. */
  noLaneDispositionSlots: number[];
  /** Counter slots of failovers, by FailoverReason. */
  failoverSlots: number[];
  /** gateway_requests_total / gateway_request_duration_seconds / route-policy series of the pool. */
  metrics: PoolMetricSlots;
  /** Indexes into CompiledConfig.hooks of the gates this pool consults (its own and the global ones), by priority. */
  gates: number[];
  /** Indexes into CompiledConfig.hooks of the taps that observe this pool's requests (its own and the global ones). */
  taps: number[];
}

/** A gate's fallback when it times out or fails: a terminal, or another hook (by index). */
export type CompiledOnError = { terminal: 'weighted' | 'reject' | 'first' | 'nothing' } | { hook: number };

/** One external hook (docs/hooks.md). Empty in safe mode: no external hook is attached. */
export interface CompiledHook {
  name: string;
  kind: 'tap' | 'gate';
  transport: 'socket' | 'webhook';
  /** Socket path or webhook URL. */
  target: string;
  /** Webhook HMAC key, resolved; '' when none. */
  secret: string;
  prompt: 'no' | 'ro' | 'rw';
  user: 'no' | 'ro';
  priority: number;
  /** Tap stage; null for a gate. */
  at: 'request' | 'route' | 'attempt' | 'completion' | null;
  onError: CompiledOnError;
  timeoutMs: number;
  settings: Record<string, unknown>;
  /** Bumped by the main thread each time the settings change (sent with `configure`). */
  settingsVersion: number;
  global: boolean;
  /** Counter slot of gateway_hook_taps_shed_total{hook} for a tap; -1 for a gate. */
  tapsShedSlot: number;
}

/** The per-pool (or direct-route) series counted on the request path (src/shared/metrics/catalog.ts). */
export interface PoolMetricSlots {
  /** Counter slots of gateway_requests_total, index requestIndex(protocol, outcome). */
  requests: number[];
  /** Histogram slots of gateway_request_duration_seconds, indexed by protocol (PROTOCOL_INDEX). */
  duration: number[];
  /** Counter slots of gateway_route_policy_selections_total by policy name (`weighted` today). */
  policySelections: Record<string, number>;
  /** Counter slots of gateway_route_policy_rejections_total by `${policy} ${status}` (routePolicyRejectionName). */
  policyRejections: Record<string, number>;
}

/** Health probing as compiled: intervals already floored at 1 s. */
export interface CompiledHealth {
  mode: 'none' | 'dead' | 'active';
  intervalMs: number;
  timeoutMs: number;
}

export interface CompiledConfig {
  /** config_version: 0 at boot, +1 per API apply. */
  version: number;
  safeMode: boolean;
  listen: { host: string; port: number };
  limits: {
    maxBodyBytes: number;
    /** advanced.max_json_depth and max_json_members: checkJsonLimits (framing/json-limits.ts) takes this object as is. */
    maxJsonDepth: number;
    maxJsonMembers: number;
    /** Same-protocol non-stream responses larger than this stream through unparsed, billed zero. */
    translateBodyCapBytes: number;
    /** advanced.max_inflight_per_worker; 0 = not set (the worker sizes it from its heap). */
    maxInflightPerWorker: number;
  };
  /** The worker's event loop. */
  eventLoop: {
    /** advanced.idle_spin_us: the poll window after I/O (src/worker/loop/idle-spin.ts); 0 = off. */
    idleSpinUs: number;
  };
  /** The SSRF guard's settings (security.*), checked at every outbound connect. */
  egress: EgressPolicy;
  upstream: {
    http1Only: boolean;
    h2PriorKnowledge: boolean;
    requestTimeoutMs: number;
    connectionsPerOrigin: number;
  };
  auth: {
    chain: string[];
    upstreamCredentials: 'own' | 'passthrough';
    /** SPKI PEM of the ed25519 key that signs virtual keys; null without auth.signing_key. */
    keyVerifyPem: string | null;
    /** Hex HMAC key minted AWS secrets are derived under (from auth.signing_key); null without it. */
    awsDerivationKeyHex: string | null;
  };
  /** identity-providers and role_bindings (token exchange, IdP entries of the auth chains). */
  identity: { providers: CompiledIdentityProvider[]; bindings: CompiledBindings };
  governance: {
    /** governance.enabled: limits enforced and usage metered per key. */
    enabled: boolean;
    /** Verified keys cached per worker. */
    keyCacheEntries: number;
  };
  providers: CompiledProvider[];
  lanes: CompiledLane[];
  pools: CompiledPool[];
  hooks: CompiledHook[];
  /**
   * The hooks of requests that reach no pool: direct routes (`/{provider}/{model}`, `/{model}`
   * naming a lane) and refusals made before a target is known. These are the global hooks, so a
   * global tap sees every request and a global gate decides direct routes too.
   */
  unpooledHooks: { gates: number[]; taps: number[] };
  /** Disposition counter slots of requests that ended before any pool or lane was known (pool "", lane ""). */
  unroutedDispositionSlots: number[];
  /** Request logs: whether workers send a record per finished request, and with the prompt. */
  logs: { enabled: boolean; includePrompt: boolean };
  health: CompiledHealth;
  metrics: CompiledMetrics;
  /** OpenTelemetry traces (an `export:` instance with `module: otlp`); null: nothing is traced. */
  tracing: CompiledTracing | null;
  /** Bytes of the shared buffer the slots above need (workers check they have at least this). */
  sabBytes: number;
}

/** Metric series slots (see src/shared/metrics/catalog.ts) and the /metrics mount rule. */
export interface CompiledMetrics {
  /** Set when an `export:` instance has `module: prometheus`: GET /metrics is mounted. */
  prometheus: { bufferSeconds: number } | null;
  /** Counter slots of gateway_translations_total, index from * 6 + to over PROTOCOL_NAMES. */
  translations: number[];
  /** Counter slots of gateway_translations_refused_total, index refusalIndex(from, to, reason). */
  translationsRefused: number[];
  /** Counter slot of gateway_billing_truncated_total. */
  billingTruncated: number;
  /** Requests of direct routes and of requests refused before a target was known (pool ""). */
  direct: PoolMetricSlots;
  /** Counter slots of gateway_webhook_logs_dropped_total and gateway_file_logs_dropped_total (counted by main). */
  webhookLogsDropped: number;
  fileLogsDropped: number;
  /** Gauge slots of gateway_thread_*, indexed by shared-memory holder (0 = main, n + 1 = worker n). */
  threads: ThreadRuntimeSlots[];
  /** Counter slots of gateway_trace_spans_dropped_total, indexed by SpanDropReason (catalog.ts). */
  traceSpansDropped: number[];
  /** Histogram slots of gateway_reservation_estimate_ratio{part="input"} and {part="output"}. */
  reservationEstimate: { input: number; output: number };
}

/** The OTLP trace export (src/worker/tracing), settings with defaults filled in. */
export interface CompiledTracing {
  /** Full OTLP/HTTP traces URL. */
  endpoint: string;
  /** Headers of every export, secrets resolved. */
  headers: Record<string, string>;
  sampleRatio: number;
  includePrompt: boolean;
  maxQueueSpans: number;
  maxBatchSpans: number;
  flushIntervalMs: number;
  timeoutMs: number;
  serviceName: string;
}

/** One thread's runtime gauges, written by that thread every 5 s (runtime-sampler.ts). */
export interface ThreadRuntimeSlots {
  /** V8 heap in use, KiB (an Int32 gauge counts KiB up to 2 TiB). */
  heapKib: number;
  /** Event-loop delay over the last sample, µs: 99th percentile and maximum. */
  loopP99Us: number;
  loopMaxUs: number;
  /** Share of the last sample the event loop was busy with work (idle spin excluded), parts per million. */
  busyPpm: number;
}

/**
 * Stable SharedArrayBuffer slots, assigned by the main thread when it compiles a config
 * (implemented by src/shared/sab). The same name always gets the same slot for the life of
 * the process, so counters and breaker cells survive an apply.
 */
export interface SlotAssigner {
  laneSlot(lane: string): number;
  /** The (pool, lane) breaker cell. */
  cellSlot(pool: string, lane: string): number;
  /** The lane-default breaker cell (direct routes and /stats). */
  defaultCellSlot(lane: string): number;
  /** The metric series under `key` (the same key always gets the same slot). */
  metricSeries(key: string, spec: MetricSeriesSpec): number;
  /** Bytes the shared buffer needs to hold every slot assigned so far. */
  bytesNeeded(): number;
  /** Threads that share the memory (main + workers). */
  readonly holders: number;
}
