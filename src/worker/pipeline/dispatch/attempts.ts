// The dispatch step's state machine: pick a member, build and sign the attempt, send it, relay
// its answer; on a failure before the first byte record it and fail over (up to max_hops,
// within timeout_secs), else answer it. One object per dispatched request: the owner of each
// attempt's undici handler (no closure per callback) and the node the attempt timeouts sweep.
// Every way out is end() with its disposition (docs/routing.md has the table).
import type { Buffer } from 'node:buffer';
import { GatewayError } from '../../../shared/errors.js';
import { TranslationRefused } from '../../../shared/protocols/refusal.js';
import {
  AttemptOutcome,
  Disposition,
  FailoverReason,
  dispositionOf,
  failoverReasonOf,
  outcomeOfErrorStatus,
  outcomeOfTransportError,
  retryAfterMs,
} from '../../../shared/routing/attempt-outcome.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import { TimedAttemptNode } from '../../upstream/attempt-timers.js';
import { UpstreamAttempt, type AttemptOwner } from '../../upstream/upstream-attempt.js';
import { AttemptPlan } from '../../routing/attempt-plan.js';
import { Parked, type RequestContext } from '../context.js';
import { Answer, errorAnswer, streamError } from '../end/answer.js';
import { end } from '../end/end.js';
import { tap } from '../end/observe.js';
import { relayData, relayEnd, relayStart, errorBodyText, overTranslateCapAnswer, RelayVerdict } from '../relay/relay.js';
import { Relay, RelayState } from '../relay/relay-state.js';
import { answerCompleted, answerCompleting, attemptEnding, attemptSending } from './attempt-observers.js';
import { LastFailure } from './last-failure.js';
import { signOutgoing } from './outgoing.js';
import { nextMember, NextMember } from './pick.js';

/** One reason object each for aborting an attempt (no Error made per request). */
const CLIENT_WENT_AWAY = new Error('client went away');
const OVER_TRANSLATE_CAP = new Error('response over the translate cap');
const STREAM_BROKE = new Error('the upstream stream broke');

export class Attempts extends TimedAttemptNode implements AttemptOwner {
  readonly plan = new AttemptPlan();
  readonly relay = new RelayState();
  readonly failure = new LastFailure();
  /** The attempt in flight: callbacks of any other (an earlier, abandoned one) are ignored. */
  private current: UpstreamAttempt | null = null;
  private pendingFailover = FailoverReason.None;
  /** Attempts dispatched (the taps number them; > 0: something went upstream, for the settle). */
  dispatched = 0;
  /** Bytes of successful answers relayed (an aborted stream with no usage is settled by them). */
  relayedBytes = 0;

  constructor(private readonly ctx: RequestContext) {
    super();
  }

  /** Pick the next usable member and send to it; or end the request as it ran out. */
  next(): void {
    const ctx = this.ctx;
    switch (
      nextMember(ctx, this.plan) // Ended: the pick ended the request itself
    ) {
      case NextMember.Picked:
        if (this.pendingFailover !== FailoverReason.None) ctx.deps.router.failedOver(this.plan, this.pendingFailover);
        this.attempt();
        return;
      case NextMember.OutOfTime:
        if (this.plan.hops === 0)
          end(ctx, Disposition.AttemptTimeout, errorAnswer('upstream_timeout', 'the request ran out of time before any upstream was tried'));
        else end(ctx, dispositionOf(this.failure.outcome), this.failure.answer(ctx.codec));
    }
  }

  /** Build, sign and send the attempt the plan holds. */
  private attempt(): void {
    const ctx = this.ctx;
    const lane = this.plan.lane!;
    this.relay.reset(lane);
    let outgoing: OutgoingRequest | Answer;
    try {
      outgoing = ctx.kind.outgoing(ctx, lane);
    } catch (err) {
      if (err instanceof TranslationRefused) ctx.deps.metering.refused(ctx.codec.name, lane.provider.codec.name, err.reason);
      this.endAttempt(AttemptOutcome.Untranslatable, 0);
      const answer =
        err instanceof GatewayError
          ? errorAnswer(err.kind, err.message, err.retryAfterSecs)
          : errorAnswer('invalid_request', 'the request could not be translated');
      end(ctx, Disposition.Untranslatable, answer);
      return;
    }
    // The kind answered without the upstream (a count estimated for a lane with no counting
    // endpoint): the permit the pick took is released by the end, as neutral.
    if (outgoing instanceof Answer) {
      end(ctx, Disposition.Ok, outgoing);
      return;
    }
    const signed = signOutgoing(ctx, lane, outgoing);
    if (signed === true) this.dispatch(outgoing);
    else if (signed === false) this.credentialMissing();
    else {
      ctx.parked = Parked.Promise;
      signed.then(
        (ok) => (ok ? this.dispatch(outgoing) : this.credentialMissing()),
        () => this.credentialMissing(),
      );
    }
  }

  private credentialMissing(): void {
    this.endAttempt(AttemptOutcome.MissingCredential, 0);
    end(
      this.ctx,
      Disposition.MissingCredential,
      errorAnswer('unauthorized', `no upstream credential is available for provider "${this.plan.lane!.provider.compiled.name}"`),
    );
  }

  private dispatch(outgoing: OutgoingRequest): void {
    const ctx = this.ctx;
    if (ctx.ended) return; // the caller went away while the credential was minted
    const plan = this.plan;
    const upstream = ctx.runtime.config.upstream;
    plan.startAttempt(ctx.deps.clock.monoMs(), upstream.requestTimeoutMs);
    this.dispatched++;
    if (ctx.taps !== null) {
      if (this.dispatched === 1 && ctx.taps.wants('route')) tap(ctx, 'route');
      if (ctx.taps.wants('attempt')) tap(ctx, 'attempt');
    }
    // The head and body timeouts are the sweep's (attempt-timers.ts): undici's are off.
    ctx.deps.attemptTimers.start(this, plan.attemptDeadlineMs, upstream.requestTimeoutMs);
    attemptSending(ctx, plan, outgoing);
    const attempt = new UpstreamAttempt(this);
    this.current = attempt;
    ctx.parked = Parked.Upstream;
    plan.lane!.provider.dispatcher.dispatch(
      { origin: outgoing.origin, path: outgoing.path, method: 'POST', headers: outgoing.headers, body: outgoing.body, headersTimeout: 0, bodyTimeout: 0 },
      attempt,
    );
  }

  /** The caller went away while an attempt is in flight: cancel it (its error callback ends the request; one still connecting is aborted by attemptConnected). */
  callerAborted(): void {
    this.relay.controller?.abort(CLIENT_WENT_AWAY);
  }

  // ---- TimedAttempt (attempt-timers.ts) ----

  upstreamAbortable(): boolean {
    return this.relay.controller?.aborted === false;
  }

  upstreamPaused(): boolean {
    return this.relay.controller?.paused === true;
  }

  abortUpstream(reason: Error): void {
    this.relay.controller?.abort(reason);
  }

  // ---- the attempt's undici callbacks (AttemptOwner) ----

  attemptConnected(attempt: UpstreamAttempt): void {
    if (attempt !== this.current) return;
    this.relay.controller = attempt;
    if (this.ctx.client.aborted) attempt.abort(CLIENT_WENT_AWAY);
  }

  attemptHead(attempt: UpstreamAttempt, statusCode: number, rawHeaders: Buffer[]): void {
    if (attempt !== this.current) return;
    this.ctx.deps.attemptTimers.headArrived(this);
    relayStart(this.relay, this.ctx, statusCode, rawHeaders);
  }

  attemptData(attempt: UpstreamAttempt, chunk: Buffer): void {
    if (attempt !== this.current || this.relay.relay === Relay.Done) return;
    this.bodyTick = this.ctx.deps.attemptTimers.tick;
    if (this.relay.relay !== Relay.ErrorBody) this.relayedBytes += chunk.length;
    const verdict = relayData(this.relay, this.ctx, attempt, chunk);
    if (verdict !== RelayVerdict.Continue) this.relayed(verdict);
  }

  attemptEnd(attempt: UpstreamAttempt): void {
    if (attempt !== this.current) return;
    const relay = this.relay.relay;
    if (relay === Relay.Done) return; // the attempt already ended (over the cap, a broken stream)
    if (relay === Relay.ErrorBody) this.upstreamErrorAnswered();
    else this.relayed(relayEnd(this.relay, this.ctx));
  }

  attemptError(attempt: UpstreamAttempt, err: Error): void {
    // A connect failure comes before attemptConnected: the current attempt, with no controller yet.
    if (attempt !== this.current || this.ctx.ended || this.relay.relay === Relay.Done) return;
    const ctx = this.ctx;
    if (ctx.client.aborted) {
      this.endAttempt(AttemptOutcome.CallerAbort, 0);
      end(ctx, Disposition.CallerAbort, null);
      return;
    }
    // After the first byte there is no failover: end the stream with the protocol's error event.
    if (ctx.client.started) {
      this.midStreamFailed('the upstream provider connection failed');
      return;
    }
    const outcome = outcomeOfTransportError((err as { code?: string }).code, ctx.deps.clock.monoMs() >= this.plan.attemptDeadlineMs);
    this.failure.transport(outcome);
    this.failedBeforeFirstByte(outcome, 0);
  }

  // ---- attempt ends ----

  /** What relaying came to, past Continue. */
  private relayed(verdict: RelayVerdict): void {
    const relay = this.relay;
    switch (verdict) {
      case RelayVerdict.Complete: {
        // One clock reading for the lane's latency and the request's duration; the request ends
        // before its last bytes go out, so whoever sees the answer sees the lane's state after it.
        const nowMs = this.ctx.deps.clock.monoMs();
        answerCompleting(this.ctx, relay, nowMs);
        this.endAttempt(AttemptOutcome.Ok, 0, nowMs);
        end(this.ctx, Disposition.Ok, relay.answer, nowMs);
        answerCompleted(this.ctx, this.plan, relay, nowMs);
        return;
      }
      case RelayVerdict.Unreadable:
        this.failure.unreadable();
        this.failedBeforeFirstByte(AttemptOutcome.Transient, 0);
        return;
      case RelayVerdict.StreamBroke:
        this.midStreamFailed(relay.brokeMessage);
        return;
      case RelayVerdict.OverTranslateCap:
        relay.relay = Relay.Done;
        relay.controller?.abort(OVER_TRANSLATE_CAP);
        this.endAttempt(AttemptOutcome.Untranslatable, 0);
        end(this.ctx, Disposition.Untranslatable, overTranslateCapAnswer(this.ctx.runtime.config.limits.translateBodyCapBytes));
    }
  }

  /** An upstream error answer was read whole (up to the cap): classify it, fail over or relay it. */
  private upstreamErrorAnswered(): void {
    const relay = this.relay;
    const text = errorBodyText(relay);
    const outcome = outcomeOfErrorStatus(relay.status, text);
    this.failure.answered(outcome, relay, text, this.plan.lane!.provider.codec);
    this.failedBeforeFirstByte(outcome, retryAfterMs(relay.retryAfter, this.ctx.deps.clock.epochMs()));
  }

  /** A failure before the first byte: record it, then fail over when it may, else answer it. */
  private failedBeforeFirstByte(outcome: AttemptOutcome, retryAfterMsValue: number): void {
    this.endAttempt(outcome, retryAfterMsValue);
    this.relay.relay = Relay.Done;
    const reason = failoverReasonOf(outcome);
    if (reason !== FailoverReason.None && this.plan.pool !== null) {
      this.pendingFailover = reason;
      this.next();
      return;
    }
    end(this.ctx, dispositionOf(outcome), this.failure.answer(this.ctx.codec));
  }

  private midStreamFailed(message: string): void {
    const relay = this.relay;
    relay.relay = Relay.Done;
    if (relay.controller?.aborted === false) relay.controller.abort(STREAM_BROKE);
    this.endAttempt(AttemptOutcome.MidStream, 0);
    end(this.ctx, Disposition.TransientUpstream, streamError('upstream_error', message));
  }

  private endAttempt(outcome: AttemptOutcome, retryAfterMsValue: number, nowMs = this.ctx.deps.clock.monoMs()): void {
    this.ctx.deps.attemptTimers.stop(this);
    attemptEnding(this.ctx, this.plan, this.relay, outcome, nowMs);
    this.ctx.deps.router.endAttempt(this.plan, outcome, retryAfterMsValue, nowMs);
    // Only after the router took the latency sample from it: the plan's next attempt is unsent until it starts.
    this.plan.attemptStartMs = 0;
  }

  /** The request ends: no timeout may fire for it, and an attempt still held is ended as neutral (each exit ends its own first). */
  releaseForEnd(): void {
    this.ctx.deps.attemptTimers.stop(this);
    if (this.plan.permitHeld) this.endAttempt(AttemptOutcome.CallerAbort, 0);
  }
}
