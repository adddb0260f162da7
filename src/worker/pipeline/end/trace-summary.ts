// What a traced request's end tells the tracer (src/worker/tracing): a summary of the request,
// read off its context. Made only for a traced request.
import type { ModelRequest } from '../../../shared/model/types.js';
import type { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { RequestSummary } from '../../tracing/request-summary.js';
import type { RequestContext } from '../context.js';

export function traceSummary(ctx: RequestContext, disposition: Disposition, endedMs: number): RequestSummary {
  const relay = ctx.attempts?.relay ?? null;
  return {
    operation: 'chat',
    ingressProtocol: ctx.codec.name,
    requestModel: ctx.model,
    stream: ctx.stream,
    pool: (ctx.attempts?.plan.pool ?? ctx.pool)?.compiled.name ?? '',
    disposition,
    status: ctx.status,
    usage: relay?.usage ?? null,
    responseModel: '',
    finishReasons: [],
    keyId: ctx.keyId,
    group: ctx.key?.chain[0]?.name ?? '',
    bucket: ctx.refusedBucket,
    startedMs: ctx.req.startedMs,
    firstByteMs: relay?.firstByteMs ?? 0,
    endedMs,
    prompt: ctx.runtime.config.tracing?.includePrompt === true ? prompt(ctx) : null,
  };
}

/** The request's system text and messages for include_prompt (decoded now unless a translation did already). */
function prompt(ctx: RequestContext): ModelRequest | null {
  try {
    return ctx.decoded ?? ctx.codec.decodeRequest(ctx.body, ctx.routeInfo);
  } catch {
    return null;
  }
}
