// The first byte of a successful answer: when the caller starts to see the answer, the time to
// first token the latency histograms count (src/worker/metrics/latency-series.ts).
import type { LatencySlots } from '../../../shared/config/compiled.js';
import { recordFirstToken } from '../../metrics/latency-series.js';
import type { AttemptPlan } from '../../routing/attempt-plan.js';
import type { RequestContext } from '../context.js';
import type { RelayState } from './relay-state.js';

/** The latency histograms of the (pool, lane) serving the plan's attempt (a direct route: the lane's). */
export function latencySlots(plan: AttemptPlan): LatencySlots {
  return plan.pool !== null && plan.member >= 0 ? plan.pool.compiled.members[plan.member]!.latency : plan.lane!.compiled.directLatency;
}

/** Counts the first byte of the answer once, at `nowMs` (monotonic). */
export function firstByte(s: RelayState, ctx: RequestContext, nowMs: number): void {
  if (s.firstByteMs !== 0) return;
  s.firstByteMs = nowMs;
  recordFirstToken(ctx.deps.shared, latencySlots(ctx.attempts!.plan), ctx.codec.name, ctx.req.startedMs, nowMs);
}
