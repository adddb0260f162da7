// The dispatch step: the attempt loop (attempts.ts) takes the request from here to its end.
import { affinityHash } from '../../../shared/routing/affinity.js';
import type { RequestContext } from '../context.js';
import { Attempts } from './attempts.js';

/** A direct route's whole-request deadline (a pool's is its failover.timeout_secs). */
const DIRECT_TIMEOUT_MS = 120_000;

export function dispatchStep(ctx: RequestContext): boolean {
  const attempts = new Attempts(ctx);
  ctx.attempts = attempts;
  const plan = attempts.plan;
  const pool = ctx.pool;
  plan.deadlineMs = ctx.req.startedMs + (pool !== null ? pool.compiled.timeoutMs : DIRECT_TIMEOUT_MS);
  if (ctx.req.affinity !== '') plan.affinity = affinityHash(ctx.req.affinity);
  if (pool !== null) {
    plan.pool = pool;
    plan.poolsVisited = 1;
    plan.gateOrder = ctx.gateOrder;
  }
  attempts.next();
  return false;
}
