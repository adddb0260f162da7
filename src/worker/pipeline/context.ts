// One data-plane request as the steps see it: a single object made when the request's headers
// arrive, its fields grouped by the step that sets them. Each step (one folder each under
// src/worker/pipeline/) is a function over this context; a request kind is a list of steps
// (kinds.ts); every exit is one call of end() (end/end.ts), which accounts and answers.
//
// The context is also what the ingress tells about the body (BodySink) and about a caller that
// went away (AbortListener), so a request makes no closure for either.
import type { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import type { Codec, RouteInfo } from '../../shared/protocols/codec.js';
import type { StringSpan } from '../../shared/protocols/framing/top-level-members.js';
import { NO_STRING_SPAN } from '../../shared/protocols/framing/top-level-members.js';
import type { ModelRequest } from '../../shared/model/types.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { Admission } from '../governance/admit.js';
import type { AdmissionKey } from '../governance/key-table.js';
import type { RequestLogBuffer } from '../hooks/request-log-buffer.js';
import type { PoolTaps } from '../hooks/pool-taps.js';
import type { Metering } from '../metering.js';
import type { Route } from '../routes.js';
import type { Router } from '../routing/router.js';
import type { GateRequest } from '../hooks/route-gate.js';
import type { LaneRuntime, PoolRuntime, Runtime } from '../runtime.js';
import type { AttemptTimers } from '../upstream/attempt-timers.js';
import type { ResponseStateClient } from '../responses/state-client.js';
import type { AdmissionLease } from './admission-lease.js';
import { beginTrace, type RequestTrace } from '../tracing/request-trace.js';
import type { AbortListener, BodySink, ClientResponse, IngressRequest } from './client.js';
import type { Attempts } from './dispatch/attempts.js';
import type { RequestKind } from './kinds.js';
import type { CountState } from './count/count.js';
import type { EmbeddingsState } from './embeddings/embeddings.js';
import type { ResponsesState } from './responses/state.js';
import { Parked } from './parked.js';
import { runSteps } from './steps.js';

/** What the steps need from their worker. */
export interface PipelineDeps {
  runtime(): Runtime;
  router: Router;
  metering: Metering;
  auth: Authenticator;
  admission: Admission;
  shared: SharedState;
  /** The sweep of upstream attempt timeouts (src/worker/upstream/attempt-timers.ts). */
  attemptTimers: AttemptTimers;
  /** The Responses API state, kept by main in the store (src/worker/responses/state-client.ts). */
  responses: Pick<ResponseStateClient, 'call'>;
  /** Request-log records to the main thread's sinks (used only when logs are configured). */
  requestLogs?: RequestLogBuffer;
  /** The clocks the steps read (injected so the attempt loop is tested with a fake one). */
  clock: PipelineClock;
}

export interface PipelineClock {
  /** Monotonic ms (performance.now()): deadlines, durations, latency. */
  monoMs(): number;
  /** Epoch ms (Date.now()): key expiry, governance windows, Retry-After dates, records. */
  epochMs(): number;
}

export const SYSTEM_CLOCK: PipelineClock = Object.freeze({ monoMs: () => performance.now(), epochMs: () => Date.now() });

export { Parked };

export class RequestContext implements AbortListener, BodySink, GateRequest {
  // --- made by the ingress ---
  readonly runtime: Runtime;
  /** The steps of this request's kind, and the next one to run. */
  readonly kind: RequestKind;
  step = 0;
  parked = Parked.No;
  ended = false;

  // --- route (route/route.ts) ---
  /** The data-plane route; null for an edge answer (unknown path, wrong method...). */
  route: Route | null = null;
  /** The caller's protocol: every answer is written in it. Direct routes switch it to the target's once it is known. */
  codec: Codec;
  routeInfo: RouteInfo = {};

  // --- authenticate (authenticate/authenticate.ts) ---
  /** The caller's key; null when the front door is open (`auth.chain: []`) or it was not asked yet. */
  key: AdmissionKey | null = null;
  /** Epoch seconds read once for authentication and admission (0 under the open front door). */
  nowSec = 0;

  // --- decode (decode/decode.ts) ---
  /** The caller's bytes; null once a gate rewrote the body. */
  bytes: Buffer | null = null;
  /** Where the top-level model's string value sits in `bytes` (start -1: not known). */
  modelSpan: StringSpan = NO_STRING_SPAN;
  /** The body as text, once decoded (or as a gate rewrote it). */
  rawText: string | null = null;
  /** The body as far as the same-protocol path reads it: the whole body, or only the codec's requestMembers. */
  head: unknown = undefined;
  /** The whole body, once parsed (undefined until something needs it). */
  wholeBody: unknown = undefined;
  stream = false;
  wantStreamUsage = true;
  /** The model the caller named (body or path); '' until decoded. */
  model = '';
  /** Whether the bytes hold a reasoning state token the gateway wrote (null: not known yet; dispatch/outgoing.ts looks). */
  heldStateToken: boolean | null = null;
  /** The body decoded into the internal model, on the first translation. */
  decoded: ModelRequest | null = null;

  /** A count's, an embeddings or a Responses request's own state (count/count.ts, embeddings/embeddings.ts, responses/state.ts); null for chat. */
  kindState: CountState | EmbeddingsState | ResponsesState | null = null;

  // --- target (target/target.ts) ---
  pool: PoolRuntime | null = null;
  /** A direct route's lane (no pool). */
  lane: LaneRuntime | null = null;

  // --- admit (admit/admit.ts) ---
  /** Admission's reservation, settled once by the end; null until admitted. */
  lease: AdmissionLease | null = null;

  // --- gate (gate/gate.ts) ---
  /** Set when a hook, a log or a trace names the request. */
  requestId = '';
  /** The taps observing this request (its pool's, else the global ones); null when none. */
  taps: PoolTaps | null = null;
  /** A gate's member order for the first pool (null: the router's own). */
  gateOrder: readonly number[] | null = null;

  // --- dispatch and relay (dispatch/, relay/) ---
  /** The attempt loop, made when the request reaches dispatch. */
  attempts: Attempts | null = null;

  // --- end (end/) ---
  /** The HTTP status the caller was answered with (0 before the answer). */
  status = 0;
  /** The governance bucket whose limit refused the request ('' when none did): for its trace. */
  refusedBucket = '';
  /** Set only for a traced request (the config has an otlp export and the request was sampled). */
  readonly trace: RequestTrace | null;

  constructor(
    readonly deps: PipelineDeps,
    readonly req: IngressRequest,
    public client: ClientResponse,
    kind: RequestKind,
    codec: Codec,
  ) {
    this.runtime = deps.runtime();
    this.kind = kind;
    this.codec = codec;
    const tracing = this.runtime.config.tracing;
    this.trace = tracing !== null ? beginTrace(tracing, req.traceparent) : null;
    client.onAbort(this);
  }

  /** The body as text (decoded the first time it is asked for: a same-protocol lane sends the bytes). */
  get raw(): string {
    return (this.rawText ??= this.bytes!.toString('utf8'));
  }

  /** The whole request body (parsed the first time it is asked for: a translation, a hook, a log). */
  get body(): unknown {
    return (this.wholeBody ??= JSON.parse(this.raw));
  }

  /** The body for a tap or a log record: parsed when it can be, else null (refused before it was read, or not JSON). */
  bodyForObservers(): unknown {
    if (this.wholeBody !== undefined) return this.wholeBody;
    if (this.bytes === null && this.rawText === null) return null;
    try {
      return this.body;
    } catch {
      return null;
    }
  }

  /** GateRequest: the caller's protocol. */
  get protocolName(): string {
    return this.codec.name;
  }

  /** The caller's key id ('' when anonymous). */
  get keyId(): string {
    return this.key?.key.id ?? '';
  }

  // ---- the ingress (BodySink) ----

  onBody(): void {
    if (this.parked !== Parked.Body || this.ended) return;
    this.parked = Parked.No;
    runSteps(this);
  }

  onBodyTooLarge(): void {
    if (this.ended) return;
    this.kind.onBodyTooLarge(this);
  }

  // ---- the caller (AbortListener) ----

  /** The caller went away: an attempt in flight is cancelled (its error ends the request); anything else ends now. */
  onClientAbort(): void {
    if (this.ended) return;
    if (this.parked === Parked.Upstream && this.attempts !== null) this.attempts.callerAborted();
    else this.kind.onCallerAbort(this);
  }
}
