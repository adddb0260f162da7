// What the attempt loop tells the observers as an attempt goes: its trace context sent upstream
// (W3C traceparent), its duration and its span's end, and a successful answer's completion for
// the latency histograms. One pointer check each when tracing is off.
import type { AttemptOutcome } from '../../../shared/routing/attempt-outcome.js';
import { recordAttempt, recordCompletion } from '../../metrics/latency-series.js';
import type { AttemptPlan } from '../../routing/attempt-plan.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import type { RequestContext } from '../context.js';
import { firstByte, latencySlots } from '../relay/first-byte.js';
import type { RelayState } from '../relay/relay-state.js';

/** The attempt is about to be sent: the caller's trace goes upstream, through this attempt's span when traced. */
export function attemptSending(ctx: RequestContext, plan: AttemptPlan, outgoing: OutgoingRequest): void {
  const traceparent = ctx.trace !== null ? ctx.trace.attemptSent(plan.lane!, plan.attemptStartMs) : ctx.req.traceparent;
  if (traceparent !== '') outgoing.headers.traceparent = traceparent;
}

/** The attempt the plan holds ended with `outcome` (before the router releases it). */
export function attemptEnding(ctx: RequestContext, plan: AttemptPlan, relay: RelayState, outcome: AttemptOutcome, nowMs: number): void {
  // Only a sent attempt has a duration (a permit is also held by one refused before sending).
  if (!plan.permitHeld || plan.attemptStartMs === 0) return;
  recordAttempt(ctx.deps.shared, plan.lane!.compiled.attemptDurationSlot, plan.attemptStartMs, nowMs);
  ctx.trace?.attemptEnded(outcome, relay.status, nowMs);
}

/** A successful answer is complete at `nowMs`: a whole body's first byte goes out now. */
export function answerCompleting(ctx: RequestContext, relay: RelayState, nowMs: number): void {
  firstByte(relay, ctx, nowMs);
}

/** After the end: the time per output token and the output rate of a successful answer. */
export function answerCompleted(ctx: RequestContext, plan: AttemptPlan, relay: RelayState, nowMs: number): void {
  recordCompletion(ctx.deps.shared, latencySlots(plan), ctx.codec.name, ctx.req.startedMs, relay.firstByteMs, nowMs, relay.usage?.output ?? 0, ctx.stream);
}
