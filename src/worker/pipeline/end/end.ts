// The one end of every request, whatever the exit: success, a failure before or after the
// first byte, a caller abort, a refusal by authentication, admission or a gate, a body too
// large, an edge answer. It accounts (account.ts: breaker cell and permit, metrics, metering,
// the governance lease), answers (the Answer the exit gave), then observes (observe.ts: the
// completion taps, the request-log record, a traced request's spans). Exactly once per request: a second call is a
// no-op, so a late callback of an exit already taken cannot count twice.
import type { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { Parked, type RequestContext } from '../context.js';
import { account } from './account.js';
import { AnswerKind, type Answer } from './answer.js';
import { observe } from './observe.js';
import { endTrace } from '../../tracing/worker-tracer.js';
import { traceSummary } from './trace-summary.js';

/**
 * Ends the request. `answer` null: nothing is written (the caller went away). `clockMs`: the
 * performance.now() the caller already read (the success path reads one for the lane's latency).
 */
export function end(ctx: RequestContext, disposition: Disposition, answer: Answer | null, clockMs = ctx.deps.clock.monoMs()): void {
  if (ctx.ended) return;
  ctx.ended = true;
  ctx.parked = Parked.No;
  account(ctx, disposition, clockMs);
  if (answer !== null) write(ctx, answer);
  observe(ctx, disposition, clockMs);
  if (ctx.trace !== null) endTrace(ctx.deps.shared, ctx.runtime.config, ctx.trace, traceSummary(ctx, disposition, clockMs));
}

function write(ctx: RequestContext, answer: Answer): void {
  const client = ctx.client;
  // Answered before the body was read: the rest of it must not be taken for the next request.
  if (!ctx.req.bodyRead) client.closeOnEnd = true;
  if (client.aborted) return;
  switch (answer.kind) {
    case AnswerKind.Error: {
      const e = ctx.codec.encodeError(answer.errorKind, answer.message, answer.retryAfterSecs);
      ctx.status = answer.status !== 0 ? answer.status : e.status;
      client.respond(ctx.status, answer.headers === null ? e.headers : { ...e.headers, ...answer.headers }, e.body);
      return;
    }
    case AnswerKind.Whole:
      ctx.status = answer.status;
      client.respond(answer.status, answer.headers!, answer.body);
      return;
    case AnswerKind.StreamTail:
      ctx.status = ctx.attempts?.relay.status ?? 200;
      client.end(answer.body);
      return;
    case AnswerKind.StreamError: {
      ctx.status = ctx.attempts?.relay.status ?? 200;
      const encoder = ctx.attempts?.relay.encoder ?? ctx.codec.createStreamEncoder();
      client.end(encoder.error(answer.errorKind, answer.message));
      return;
    }
    default:
      return;
  }
}
