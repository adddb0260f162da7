// The accounting half of the end: the attempt still held is released (its breaker cell and
// permit), the disposition is counted where the request ended (pool member, pool, direct lane,
// or nowhere yet), gateway_requests_total and the duration histogram, metering of what was
// served, and admission's lease settled. Atomic adds on shared memory; no message, no I/O.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { countRequest, outcomeOf } from '../../metrics/request-series.js';
import type { RequestContext } from '../context.js';

export function account(ctx: RequestContext, disposition: Disposition, clockMs: number): void {
  const attempts = ctx.attempts;
  attempts?.releaseForEnd();
  const plan = attempts?.plan ?? null;
  // After a fallback_pool the pool the request ended on is the plan's.
  const pool = plan !== null ? plan.pool : ctx.pool;
  const served = plan?.lane ?? null;
  const config = ctx.runtime.config;
  let slot: number;
  if (pool !== null && plan !== null && plan.member >= 0 && served !== null) slot = pool.compiled.members[plan.member]!.dispositionSlots[disposition]!;
  else if (pool !== null) slot = pool.compiled.noLaneDispositionSlots[disposition]!;
  else if (ctx.lane !== null) slot = ctx.lane.compiled.directDispositionSlots[disposition]!;
  else slot = config.unroutedDispositionSlots[disposition]!;
  const deps = ctx.deps;
  deps.shared.metrics.counterAdd(slot);
  countRequest(deps.shared, pool !== null ? pool.compiled.metrics : config.metrics.direct, ctx.codec.name, outcomeOf(disposition), ctx.req.startedMs, clockMs);
  const relay = attempts?.relay ?? null;
  const usage = relay?.usage ?? null;
  const nowMs = deps.clock.epochMs();
  if (served !== null && (disposition === Disposition.Ok || usage !== null))
    deps.metering.record(pool?.compiled.name ?? '', served, usage, relay!.truncated, nowMs);
  // Settle: the reservation replaced by the real usage; released whole when nothing went upstream.
  const sent = attempts !== null && attempts.dispatched > 0;
  ctx.lease?.settle(
    usage,
    served?.servedBy ?? null,
    disposition === Disposition.Ok,
    nowMs,
    sent,
    disposition === Disposition.CallerAbort ? (attempts?.relayedBytes ?? 0) : 0,
  );
}
