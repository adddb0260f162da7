// The observing half of the end, and the taps of the stages before it: tap events (taps are
// fire-and-forget: an event is built only when some tap of the stage has room) and the
// request-log record (only when request logs are configured; the prompt only when opted in).
import { randomUUID } from 'node:crypto';
import type { TapEvent, TapStage } from '../../../shared/hooks/wire.js';
import { DISPOSITION_NAMES, type Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { PoolTaps } from '../../hooks/pool-taps.js';
import type { RequestContext } from '../context.js';

/** The taps that observe this request: its pool's (own and global), else the global ones. */
export function tapsOf(ctx: RequestContext): PoolTaps | null {
  return ctx.pool !== null ? ctx.pool.taps : ctx.runtime.unpooledTaps;
}

/** The pool the request is on ('' for none), the lane it is or was on ('' for none). */
function poolName(ctx: RequestContext): string {
  return (ctx.attempts?.plan.pool ?? ctx.pool)?.compiled.name ?? '';
}

function laneName(ctx: RequestContext): string {
  return (ctx.attempts?.plan.lane ?? ctx.lane)?.compiled.name ?? '';
}

/** One tap event of this request (only called when a tap of `at` wants one: ctx.taps.wants(at)). */
export function tap(ctx: RequestContext, at: TapStage, disposition = ''): void {
  if (ctx.requestId === '') ctx.requestId = randomUUID();
  const event: TapEvent = { request_id: ctx.requestId, pool: poolName(ctx), protocol: ctx.codec.name, model: ctx.model, stream: ctx.stream };
  if (at !== 'request') event.lane = laneName(ctx);
  if (at === 'attempt') event.attempt = ctx.attempts?.dispatched ?? 0;
  if (at === 'completion') {
    event.disposition = disposition;
    event.duration_ms = Math.max(0, Math.round(ctx.deps.clock.monoMs() - ctx.req.startedMs));
  }
  ctx.taps!.emit(at, event, ctx.bodyForObservers(), ctx.keyId);
}

export function observe(ctx: RequestContext, disposition: Disposition, clockMs: number): void {
  const taps = ctx.taps ?? tapsOf(ctx);
  if (taps !== null && taps.wants('completion')) {
    ctx.taps = taps;
    tap(ctx, 'completion', DISPOSITION_NAMES[disposition]!);
  }
  if (ctx.runtime.config.logs.enabled) logRecord(ctx, disposition, clockMs);
}

/** One request-log record (sent to the main thread's sinks; no secret, the prompt only when opted in). */
function logRecord(ctx: RequestContext, disposition: Disposition, clockMs: number): void {
  const logs = ctx.deps.requestLogs;
  if (logs === undefined) return;
  if (ctx.requestId === '') ctx.requestId = randomUUID();
  const lane = ctx.attempts?.plan.lane ?? ctx.lane;
  const usage = ctx.attempts?.relay.usage ?? null;
  logs.push({
    ts: ctx.deps.clock.epochMs(),
    request_id: ctx.requestId,
    key_id: ctx.keyId,
    protocol: ctx.codec.name,
    model: ctx.model,
    stream: ctx.stream,
    pool: poolName(ctx),
    lane: lane?.compiled.name ?? '',
    provider: lane?.provider.compiled.name ?? '',
    status: ctx.status,
    disposition: DISPOSITION_NAMES[disposition]!,
    attempts: ctx.attempts?.plan.hops ?? 0,
    duration_ms: Math.max(0, Math.round(clockMs - ctx.req.startedMs)),
    tokens_input: usage?.input ?? null,
    tokens_output: usage?.output ?? null,
    tokens_cache_read: usage?.cacheRead ?? null,
    ...(ctx.runtime.config.logs.includePrompt ? { prompt: ctx.bodyForObservers() } : {}),
  });
}
