// One data-plane request from decode to its one end. The routing step (src/worker/routing)
// picks each attempt; upstream-request.ts builds it; this object dispatches it and owns each
// attempt's undici handler (src/worker/upstream/upstream-attempt.ts: no closure per callback);
// relay.ts writes the answer back; every exit ends in finish(disposition), exactly once.
//
// Exits and their dispositions (docs/routing.md has the table with breaker effects):
// success -> ok; upstream failure before the first byte -> fail over, or the failure's own
// disposition when no member is left; failure after the first byte -> transient_upstream (an
// SSE error event); caller abort before or after dispatch -> caller_abort; untranslatable
// request -> untranslatable; missing upstream credential -> missing_credential; no usable
// member -> exhausted (503); relayed upstream 4xx -> client_error (auth: hard_down).
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { GatewayError, type ErrorKind } from '../../shared/errors.js';
import { TranslationRefused } from '../../shared/protocols/refusal.js';
import type { Usage } from '../../shared/model/types.js';
import type { Codec, PassthroughStream, RouteInfo, StreamDecoder, StreamEncoder } from '../../shared/protocols/codec.js';
import { NO_STRING_SPAN, type StringSpan } from '../../shared/protocols/framing/top-level-members.js';
import {
  AttemptOutcome, Disposition, FailoverReason, dispositionOf, failoverReasonOf, outcomeOfErrorStatus, outcomeOfTransportError, retryAfterMs,
} from '../../shared/routing/attempt-outcome.js';
import { affinityHash } from '../../shared/routing/affinity.js';
import { Availability, recoveryHintMs } from '../../shared/routing/availability.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { OutgoingRequest } from '../upstream/auth/upstream-auth.js';
import type { LaneRuntime, PoolRuntime, Runtime } from '../runtime.js';
import type { Metering } from '../metering.js';
import { AttemptPlan } from '../routing/attempt-plan.js';
import { Exhaustion, type Router } from '../routing/router.js';
import { GateVerdict, type GateDecision, type GateRequest } from '../routing/route-gate.js';
import { respondGateRefusal } from '../hooks/gate-refusal.js';
import type { PoolTaps } from '../hooks/pool-taps.js';
import type { TapEvent, TapStage } from '../../shared/hooks/wire.js';
import { randomUUID } from 'node:crypto';
import { DISPOSITION_NAMES } from '../../shared/routing/attempt-outcome.js';
import type { RequestLogBuffer } from '../hooks/request-log-buffer.js';
import type { AdmissionLease } from './admission-lease.js';
import type { AbortListener, ClientResponse, IngressRequest } from './client.js';
import { endStreamWithError, kindForUpstreamStatus, respondError } from './respond-error.js';
import { buildOutgoing, forwardAnthropicHeaders, forwardCallerCredential, type RequestBody } from './upstream-request.js';
import { Relay, relayData, relayEnd, relayStart, resetRelay, type RelayState } from './relay.js';
import { relayableHeaders } from './relay-helpers.js';
import { countRequest, outcomeOf } from '../metrics/request-series.js';
import type { AttemptTimers, TimedAttempt } from '../upstream/attempt-timers.js';
import { UpstreamAttempt, type AttemptControl, type AttemptOwner } from '../upstream/upstream-attempt.js';

/** What the exchange needs from its worker. */
export interface ExchangeDeps {
  router: Router;
  metering: Metering;
  shared: SharedState;
  /** The worker's sweep of attempt head and body timeouts (undici's are off). */
  attemptTimers: AttemptTimers;
  requestLogs?: RequestLogBuffer;
}

/** One reason object for every caller abort (no Error made per aborted request). */
const CLIENT_WENT_AWAY = new Error('client went away');

/** A gate whose answer could not be had at all (a bug in a gate, not a hook failure): route by SWRR. */
const GATE_ABSTAIN: GateDecision = Object.freeze({ verdict: GateVerdict.Abstain, order: [], status: 0, message: '' });

export class Exchange implements AttemptOwner, RequestBody, RelayState, AbortListener, GateRequest, TimedAttempt {
  // --- the request (RequestBody) ---
  /** The caller's bytes; null once a gate rewrote the body. */
  bytes: Buffer | null = null;
  /** Where the top-level model's string value sits in `bytes` (handle.ts; start -1: not known). */
  modelSpan: StringSpan = NO_STRING_SPAN;
  /** The body as text, once decoded (or as a gate rewrote it). */
  private rawText: string | null = null;
  /** The body as far as the same-protocol path reads it: the whole body, or only the codec's requestMembers. */
  head: unknown = undefined;
  /** The whole body, once parsed (undefined until something needs it). */
  private wholeBody: unknown = undefined;
  routeInfo: RouteInfo = {};
  stream = false;
  decoded: RequestBody['decoded'] = null;
  wantStreamUsage = true;
  readonly plan = new AttemptPlan();
  /** A direct route's lane (its dispositions are counted there even when no permit was won). */
  private directLane: LaneRuntime | null = null;
  private finished = false;
  /** Set only when the pool has hooks (gates and taps name the request by it). */
  requestId = '';
  /** The pool's taps; null when none observe it. */
  private taps: PoolTaps | null = null;
  private attempts = 0;
  /** Governance settle: whether any attempt was dispatched, and the answer's bytes relayed. */
  private sentUpstream = false;
  private relayedBytes = 0;

  // --- the current attempt (RelayState) ---
  /** The attempt in flight: callbacks of any other (an earlier, abandoned one) are ignored. */
  private current: UpstreamAttempt | null = null;
  /** The current attempt once undici has sent it (it can be paused and aborted then). */
  controller: AttemptControl | null = null;
  relay = Relay.None;
  status = 0;
  contentType = '';
  retryAfter = '';
  chunks: Buffer[] = [];
  bufferedBytes = 0;
  passthrough: PassthroughStream | null = null;
  decoder: StreamDecoder | null = null;
  encoder: StreamEncoder | null = null;
  usage: Usage | null = null;
  truncated = false;
  errorHeaders: Record<string, string | string[] | undefined> | null = null;
  resumeUpstream: (() => void) | null = null;

  // --- the attempt's timeouts (attempt-timers.ts) ---
  timerPrev: TimedAttempt | null = null;
  timerNext: TimedAttempt | null = null;
  timerListed = false;
  headDeadlineMs = 0;
  bodyTimeoutMs = 0;
  bodyTick = 0;

  // --- the last failure before the first byte (answered when no member is left) ---
  private lastOutcome = AttemptOutcome.Ok;
  /** 0: the failure was not an upstream answer (kind/message below say what it was). */
  private lastErrorStatus = 0;
  private lastErrorText = '';
  private lastErrorContentType = '';
  private lastErrorRetryAfter = '';
  private lastErrorHeaders: Record<string, string | string[] | undefined> | null = null;
  private lastErrorCodec: Codec | null = null;
  private lastFailureKind: ErrorKind = 'upstream_error';
  private lastFailureMessage = '';
  private pendingFailover = FailoverReason.None;

  constructor(
    readonly runtime: Runtime,
    private readonly deps: ExchangeDeps,
    private readonly req: IngressRequest,
    readonly client: ClientResponse,
    /** The caller's protocol (errors and responses are written in it). */
    readonly codec: Codec,
    /** Admission's reservation, settled once by finish(); null when no admission step ran. */
    private readonly lease: AdmissionLease | null = null,
  ) {
    client.onAbort(this);
  }

  /** The caller went away: cancel the upstream attempt (its error callback ends the request). */
  onClientAbort(): void {
    this.controller?.abort(CLIENT_WENT_AWAY);
  }

  upstreamAbortable(): boolean {
    return this.controller !== null && !this.controller.aborted;
  }

  upstreamPaused(): boolean {
    return this.controller !== null && this.controller.paused;
  }

  abortUpstream(reason: Error): void {
    this.controller?.abort(reason);
  }

  get lane(): LaneRuntime {
    return this.plan.lane!;
  }

  /** The body as text (decoded the first time it is asked for: a same-protocol lane sends the bytes). */
  get raw(): string {
    return (this.rawText ??= this.bytes!.toString('utf8'));
  }

  /** The whole request body (parsed the first time it is asked for: a translation, a hook, a log). */
  get body(): unknown {
    return (this.wholeBody ??= JSON.parse(this.raw));
  }

  /**
   * Entry for a named protocol route or a direct route resolved to a pool or lane. `raw`: the
   * body as text when it was decoded already; `head`: the whole body when `whole`, else only
   * the codec's requestMembers of it.
   */
  start(raw: string | null, head: unknown, whole: boolean, modelSpan: StringSpan, routeInfo: RouteInfo, pool: PoolRuntime | null, lane: LaneRuntime | null): void {
    this.bytes = this.req.body;
    this.modelSpan = modelSpan;
    this.rawText = raw;
    this.head = head;
    if (whole) this.wholeBody = head;
    this.routeInfo = routeInfo;
    this.stream = this.codec.requestedStream(head, routeInfo);
    if (this.runtime.config.logs.enabled) this.requestId = randomUUID();
    this.wantStreamUsage = this.codec.streamUsageRequested(head);
    const plan = this.plan;
    plan.deadlineMs = this.req.startedMs + (pool !== null ? pool.compiled.timeoutMs : 120_000);
    if (this.req.affinity !== '') plan.affinity = affinityHash(this.req.affinity);
    if (pool === null) {
      this.startDirect(lane!);
      return;
    }
    plan.pool = pool;
    plan.poolsVisited = 1;
    if (pool.gate !== null || pool.taps !== null) {
      // A gate is always asked, so it names the request now; a tap whose hook sheds every event
      // builds none, so its id is made with the first event actually built (tap()).
      if (pool.gate !== null && this.requestId === '') this.requestId = randomUUID();
      this.taps = pool.taps;
      if (this.taps !== null && this.taps.wants('request')) this.tap('request');
    }
    if (pool.gate !== null) {
      const decision = pool.gate.decide(pool.compiled.name, pool.members.length, this);
      if (decision instanceof Promise) {
        decision.then(
          (d) => this.gateDecided(d),
          () => this.gateDecided(GATE_ABSTAIN),
        );
        return;
      }
      this.gateDecided(decision);
      return;
    }
    this.nextAttempt();
  }

  /** GateRequest: the caller's protocol. */
  get protocolName(): string {
    return this.codec.name;
  }

  /** GateRequest: the model the caller named. */
  get model(): string {
    return this.routeInfo.pathModel ?? this.codec.requestedModel(this.head, this.routeInfo) ?? '';
  }

  /** GateRequest: the caller's key id ('' when anonymous). */
  get keyId(): string {
    return this.lease?.keyId ?? '';
  }

  /** Apply the pool gate's decision: refuse, or route (in its order, with its rewrite). */
  private gateDecided(decision: GateDecision): void {
    if (decision.verdict === GateVerdict.Reject) {
      this.finish(decision.status >= 500 ? Disposition.Exhausted : Disposition.ClientError);
      respondGateRefusal(this.client, this.codec, decision.status, decision.message);
      return;
    }
    if (decision.verdict === GateVerdict.Reorder) this.plan.gateOrder = decision.order;
    if (decision.body !== undefined) {
      // A prompt: rw gate's rewrite, applied before translation (and before same-protocol passthrough).
      this.head = decision.body;
      this.wholeBody = decision.body;
      this.bytes = null;
      this.modelSpan = NO_STRING_SPAN;
      this.rawText = JSON.stringify(decision.body);
    }
    this.nextAttempt();
  }

  /** One tap event of this request (only called when a tap observes `at`). */
  private tap(at: TapStage, disposition = ''): void {
    const lane = this.plan.lane;
    if (this.requestId === '') this.requestId = randomUUID();
    const event: TapEvent = {
      request_id: this.requestId,
      pool: this.plan.pool!.compiled.name,
      protocol: this.codec.name,
      model: this.model,
      stream: this.stream,
    };
    if (at !== 'request') event.lane = lane !== null ? lane.compiled.name : '';
    if (at === 'attempt') event.attempt = this.attempts;
    if (at === 'completion') {
      event.disposition = disposition;
      event.duration_ms = Math.max(0, Math.round(performance.now() - this.req.startedMs));
    }
    this.taps!.emit(at, event, this.body, this.keyId);
  }

  private startDirect(lane: LaneRuntime): void {
    this.directLane = lane;
    const availability = this.deps.router.selectDirect(this.plan, lane);
    if (availability === Availability.Available) {
      this.attempt();
      return;
    }
    const cell = lane.compiled.defaultCellSlot;
    const nowMs = Date.now();
    // A dead (hard-down) lane's cooldown is genuine; budget and capacity get the 2 s floor.
    const hintMs = availability === Availability.Dead ? this.deps.shared.breakers.cooldownRemainingMs(cell, nowMs) || null : recoveryHintMs(this.deps.shared, availability, cell, nowMs);
    this.finish(Disposition.Exhausted);
    respondError(this.client, this.codec, 'exhausted', `lane "${lane.compiled.name}" is unavailable`, Math.ceil((hintMs ?? 2000) / 1000));
  }

  /** Pick the next usable member and send to it; or answer how the request ran out. */
  private nextAttempt(): void {
    const plan = this.plan;
    const router = this.deps.router;
    for (;;) {
      if (this.client.aborted) {
        this.finish(Disposition.CallerAbort);
        return;
      }
      if (plan.hops > plan.pool!.compiled.maxHops || performance.now() >= plan.deadlineMs) break;
      if (router.select(plan)) {
        if (this.pendingFailover !== FailoverReason.None) router.failedOver(plan, this.pendingFailover);
        this.attempt();
        return;
      }
      const exhaustion = router.exhaustion(plan, this.runtime);
      if (exhaustion === Exhaustion.Fallback) continue;
      if (exhaustion === Exhaustion.LeastBad) {
        if (this.pendingFailover !== FailoverReason.None) router.failedOver(plan, this.pendingFailover);
        this.attempt();
        return;
      }
      if (plan.hops === 0) {
        this.finish(Disposition.Exhausted);
        respondError(this.client, this.codec, 'exhausted', `every member of pool "${plan.pool!.compiled.name}" is unavailable`, router.retryAfterSecs);
        return;
      }
      break;
    }
    if (plan.hops === 0) {
      this.finish(Disposition.AttemptTimeout);
      respondError(this.client, this.codec, 'upstream_timeout', 'the request ran out of time before any upstream was tried');
      return;
    }
    this.answerLastFailure();
  }

  /** Build and send the attempt the plan holds. */
  private attempt(): void {
    const lane = this.plan.lane!;
    resetRelay(this);
    let outgoing: OutgoingRequest;
    try {
      outgoing = buildOutgoing(this, this.codec, lane, this.deps.metering);
      forwardAnthropicHeaders(outgoing, this.req, this.codec, lane.provider.codec);
    } catch (err) {
      if (err instanceof TranslationRefused) this.deps.metering.refused(this.codec.name, lane.provider.codec.name, err.reason);
      this.endAttempt(AttemptOutcome.Untranslatable, 0);
      this.finish(Disposition.Untranslatable);
      if (err instanceof GatewayError) respondError(this.client, this.codec, err.kind, err.message, err.retryAfterSecs);
      else respondError(this.client, this.codec, 'invalid_request', 'the request could not be translated');
      return;
    }
    if (this.runtime.config.auth.upstreamCredentials === 'passthrough') {
      forwardCallerCredential(outgoing, this.req);
      this.dispatch(outgoing);
      return;
    }
    const signed = lane.provider.auth.apply(outgoing);
    if (signed === true) this.dispatch(outgoing);
    else if (signed === false) this.credentialMissing();
    else
      signed.then(
        (ok) => (ok ? this.dispatch(outgoing) : this.credentialMissing()),
        () => this.credentialMissing(),
      );
  }

  private credentialMissing(): void {
    const provider = this.plan.lane!.provider.compiled.name;
    this.endAttempt(AttemptOutcome.MissingCredential, 0);
    this.finish(Disposition.MissingCredential);
    respondError(this.client, this.codec, 'unauthorized', `no upstream credential is available for provider "${provider}"`);
  }

  private dispatch(outgoing: OutgoingRequest): void {
    if (this.client.aborted) {
      this.endAttempt(AttemptOutcome.CallerAbort, 0);
      this.finish(Disposition.CallerAbort);
      return;
    }
    const plan = this.plan;
    const nowMs = performance.now();
    const upstream = this.runtime.config.upstream;
    let timeoutMs = Math.min(upstream.requestTimeoutMs, Math.max(1, Math.floor(plan.deadlineMs - nowMs)));
    const attemptTimeoutMs = plan.pool !== null ? plan.pool.compiled.attemptTimeoutMs : 0;
    if (attemptTimeoutMs !== 0 && attemptTimeoutMs < timeoutMs) timeoutMs = attemptTimeoutMs;
    plan.attemptStartMs = nowMs;
    plan.attemptDeadlineMs = nowMs + timeoutMs;
    if (this.taps !== null) {
      this.attempts++;
      if (this.attempts === 1 && this.taps.wants('route')) this.tap('route');
      if (this.taps.wants('attempt')) this.tap('attempt');
    }
    // The head and body timeouts are the sweep's (attempt-timers.ts): undici's are off.
    this.deps.attemptTimers.start(this, plan.attemptDeadlineMs, upstream.requestTimeoutMs);
    const attempt = new UpstreamAttempt(this);
    this.current = attempt;
    this.sentUpstream = true;
    plan.lane!.provider.dispatcher.dispatch(
      { origin: outgoing.origin, path: outgoing.path, method: 'POST', headers: outgoing.headers, body: outgoing.body, headersTimeout: 0, bodyTimeout: 0 },
      attempt,
    );
  }

  // ---- the attempt's undici callbacks (AttemptOwner) ----

  attemptConnected(attempt: UpstreamAttempt): void {
    if (attempt !== this.current) return;
    this.controller = attempt;
    if (this.client.aborted) attempt.abort(CLIENT_WENT_AWAY);
  }

  attemptHead(attempt: UpstreamAttempt, statusCode: number, rawHeaders: Buffer[]): void {
    if (attempt !== this.current) return;
    this.deps.attemptTimers.headArrived(this);
    relayStart(this, statusCode, rawHeaders);
  }

  attemptData(attempt: UpstreamAttempt, chunk: Buffer): void {
    if (attempt !== this.current) return;
    this.bodyTick = this.deps.attemptTimers.tick;
    if (this.relay !== Relay.ErrorBody) this.relayedBytes += chunk.length;
    relayData(this, attempt, chunk);
  }

  attemptEnd(attempt: UpstreamAttempt): void {
    if (attempt !== this.current) return;
    const relay = this.relay;
    if (relay === Relay.ErrorBody) {
      this.upstreamErrorAnswered();
      return;
    }
    if (relay === Relay.Done) return; // the attempt already ended (over the cap, a broken stream)
    // On success relayEnd calls completing() just before the last write.
    if (!relayEnd(this)) {
      // A buffered body that could not be read: nothing reached the caller, another member may answer.
      this.attemptFailed(AttemptOutcome.Transient, 0, 'upstream_error', 'the upstream response could not be read');
    }
  }

  attemptError(attempt: UpstreamAttempt, err: Error): void {
    // A connect failure comes before attemptConnected: the current attempt, with no controller yet.
    if (attempt !== this.current) return;
    if (this.finished || this.relay === Relay.Done) return;
    if (this.client.aborted) {
      this.endAttempt(AttemptOutcome.CallerAbort, 0);
      this.finish(Disposition.CallerAbort);
      return;
    }
    if (this.client.started) {
      // After the first byte there is no failover: end the stream with the protocol's error event.
      const encoder = this.encoder ?? this.codec.createStreamEncoder();
      this.midStreamFailed();
      endStreamWithError(this.client, encoder, 'upstream_error', 'the upstream provider connection failed');
      return;
    }
    const code = (err as { code?: string }).code;
    const outcome = outcomeOfTransportError(code, performance.now() >= this.plan.attemptDeadlineMs);
    const timedOut = outcome === AttemptOutcome.AttemptTimeout;
    this.lastErrorStatus = 0;
    this.attemptFailed(outcome, 0, timedOut ? 'upstream_timeout' : 'upstream_error', timedOut ? 'the upstream provider timed out' : 'the upstream provider connection failed');
  }

  // ---- attempt ends ----

  /**
   * The answer is complete and its last bytes are about to go out. The request ends first,
   * so that whoever sees the answer (the caller, then /stats) sees the lane's state after it.
   */
  completing(): void {
    const nowMs = performance.now(); // one reading for the lane's latency and the request's duration
    this.endAttempt(AttemptOutcome.Ok, 0, nowMs);
    this.finish(Disposition.Ok, nowMs);
  }

  private endAttempt(outcome: AttemptOutcome, retryAfterMsValue: number, nowMs = performance.now()): void {
    this.deps.attemptTimers.stop(this);
    this.deps.router.endAttempt(this.plan, outcome, retryAfterMsValue, nowMs);
  }

  /** An upstream error answer was read whole (up to the cap): classify it, fail over or relay it. */
  private upstreamErrorAnswered(): void {
    const text = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    const status = this.status;
    this.lastErrorStatus = status;
    this.lastErrorText = text;
    this.lastErrorContentType = this.contentType;
    this.lastErrorRetryAfter = this.retryAfter;
    this.lastErrorHeaders = this.errorHeaders;
    this.lastErrorCodec = this.plan.lane!.provider.codec;
    const outcome = outcomeOfErrorStatus(status, text);
    this.attemptFailed(outcome, retryAfterMs(this.retryAfter, Date.now()), kindForUpstreamStatus(status), `upstream answered ${status}`);
  }

  /** A failure before the first byte: record it, then fail over when it may, else answer it. */
  private attemptFailed(outcome: AttemptOutcome, retryAfterMsValue: number, kind: ErrorKind, message: string): void {
    this.endAttempt(outcome, retryAfterMsValue);
    this.relay = Relay.Done;
    this.lastOutcome = outcome;
    this.lastFailureKind = kind;
    this.lastFailureMessage = message;
    const reason = failoverReasonOf(outcome);
    if (reason !== FailoverReason.None && this.plan.pool !== null) {
      this.pendingFailover = reason;
      this.nextAttempt();
      return;
    }
    this.answerLastFailure();
  }

  private midStreamFailed(): void {
    this.relay = Relay.Done;
    if (this.controller !== null && !this.controller.aborted) this.controller.abort(new Error('the upstream stream broke'));
    this.endAttempt(AttemptOutcome.MidStream, 0);
    this.finish(Disposition.TransientUpstream);
  }

  /** The last upstream error, as is when the caller speaks the lane's protocol, else translated. */
  private answerLastFailure(): void {
    this.finish(dispositionOf(this.lastOutcome));
    const status = this.lastErrorStatus;
    if (status === 0) {
      respondError(this.client, this.codec, this.lastFailureKind, this.lastFailureMessage);
    } else if (this.lastErrorCodec === this.codec) {
      // Same protocol: the vendor's own error, body and headers, is already in the caller's shape.
      if (!this.client.aborted) this.client.respond(status, relayableHeaders(this.codec.name, this.lastErrorHeaders, this.lastErrorContentType), this.lastErrorText);
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(this.lastErrorText);
      } catch {
        parsed = undefined;
      }
      const retryAfterSecs = this.lastErrorRetryAfter !== '' ? Number(this.lastErrorRetryAfter) || undefined : undefined;
      respondError(this.client, this.codec, kindForUpstreamStatus(status), this.lastErrorCodec!.upstreamErrorMessage(status, parsed), retryAfterSecs);
    }
  }

  /** The translated non-stream answer was over the translate cap: the gateway's limit, not the lane's fault. */
  overTranslateCap(): void {
    this.relay = Relay.Done;
    this.controller?.abort(new Error('response over the translate cap'));
    this.endAttempt(AttemptOutcome.Untranslatable, 0);
    this.finish(Disposition.Untranslatable);
    respondError(this.client, this.codec, 'upstream_error', `the upstream response is larger than the translation limit (advanced.translate_body_cap_bytes = ${this.runtime.config.limits.translateBodyCapBytes}) and cannot be translated`);
  }

  /** A translated stream broke mid-way (an error event, a bad frame, an early end). */
  translatedStreamFailed(err: unknown): void {
    const message = err instanceof GatewayError ? err.message : 'the upstream stream could not be read';
    this.midStreamFailed();
    endStreamWithError(this.client, this.encoder!, 'upstream_error', message);
  }

  // ---- the one end ----

  /**
   * Every exit comes here exactly once: the attempt still held is ended as neutral (a safety
   * net: each exit ends its attempt with the right outcome first), the disposition is counted
   * per (pool, lane), metering records what was served, and admission's lease is settled.
   */
  /** `clockMs`: performance.now() when the caller already read it. */
  finish(disposition: Disposition, clockMs?: number): void {
    if (this.finished) return;
    this.finished = true;
    this.deps.attemptTimers.stop(this);
    const plan = this.plan;
    if (plan.permitHeld) this.endAttempt(AttemptOutcome.CallerAbort, 0);
    const lane = plan.lane ?? this.directLane;
    const pool = plan.pool;
    let slot: number;
    if (pool !== null && plan.member >= 0 && plan.lane !== null) slot = pool.compiled.members[plan.member]!.dispositionSlots[disposition]!;
    else if (pool !== null) slot = pool.compiled.noLaneDispositionSlots[disposition]!;
    else slot = lane!.compiled.directDispositionSlots[disposition]!;
    this.deps.shared.metrics.counterAdd(slot);
    countRequest(this.deps.shared, pool !== null ? pool.compiled.metrics : this.runtime.config.metrics.direct, this.codec.name, outcomeOf(disposition), this.req.startedMs, clockMs);
    const served = plan.lane;
    const nowMs = Date.now();
    if (served !== null && (disposition === Disposition.Ok || this.usage !== null)) {
      this.deps.metering.record(pool?.compiled.name ?? '', served, this.usage, this.truncated, nowMs);
    }
    this.lease?.settle(this.usage, served?.servedBy ?? null, disposition === Disposition.Ok, nowMs, this.sentUpstream, disposition === Disposition.CallerAbort ? this.relayedBytes : 0);
    if (this.taps !== null && this.taps.wants('completion')) this.tap('completion', DISPOSITION_NAMES[disposition]!);
    if (this.runtime.config.logs.enabled) this.logRecord(disposition);
  }

  /** One request-log record (sent to the main thread's sinks; no secret, the prompt only when opted in). */
  private logRecord(disposition: Disposition): void {
    const lane = this.plan.lane ?? this.directLane;
    const usage = this.usage;
    this.deps.requestLogs?.push({
      ts: Date.now(),
      request_id: this.requestId,
      key_id: this.keyId,
      protocol: this.codec.name,
      model: this.model,
      stream: this.stream,
      pool: this.plan.pool?.compiled.name ?? '',
      lane: lane?.compiled.name ?? '',
      provider: lane?.provider.compiled.name ?? '',
      status: this.status,
      disposition: DISPOSITION_NAMES[disposition]!,
      attempts: this.plan.hops,
      duration_ms: Math.max(0, Math.round(performance.now() - this.req.startedMs)),
      tokens_input: usage?.input ?? null,
      tokens_output: usage?.output ?? null,
      tokens_cache_read: usage?.cacheRead ?? null,
      ...(this.runtime.config.logs.includePrompt ? { prompt: this.body } : {}),
    });
  }
}
