// The pick of each attempt: the next usable member of the pool (affinity, a gate's order or
// SWRR; the router takes its probe and permit), on_exhausted when none is left, and a direct
// route's one lane. Ends the request itself when the pick's answer is a refusal.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { Availability, recoveryHintMs } from '../../../shared/routing/availability.js';
import type { AttemptPlan } from '../../routing/attempt-plan.js';
import { Exhaustion } from '../../routing/router.js';
import type { RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';

export const enum NextMember {
  /** The plan holds the attempt (lane, cell, permit): dispatch it. */
  Picked = 0,
  /** The request ended (the caller went away, or no member: 503). */
  Ended = 1,
  /** Out of hops or time after earlier attempts failed: answer the last failure. */
  OutOfTime = 2,
}

export function nextMember(ctx: RequestContext, plan: AttemptPlan): NextMember {
  if (plan.pool === null) return pickDirect(ctx, plan);
  const router = ctx.deps.router;
  for (;;) {
    if (ctx.client.aborted) {
      end(ctx, Disposition.CallerAbort, null);
      return NextMember.Ended;
    }
    if (plan.hops > plan.pool.compiled.maxHops || ctx.deps.clock.monoMs() >= plan.deadlineMs) return NextMember.OutOfTime;
    if (router.select(plan)) return NextMember.Picked;
    const exhaustion = router.exhaustion(plan, ctx.runtime);
    if (exhaustion === Exhaustion.Fallback) continue;
    if (exhaustion === Exhaustion.LeastBad) return NextMember.Picked;
    if (plan.hops > 0) return NextMember.OutOfTime;
    end(ctx, Disposition.Exhausted, errorAnswer('exhausted', `every member of pool "${plan.pool.compiled.name}" is unavailable`, router.retryAfterSecs));
    return NextMember.Ended;
  }
}

/** A direct route: its lane's default cell, one attempt, no failover. */
function pickDirect(ctx: RequestContext, plan: AttemptPlan): NextMember {
  const lane = ctx.lane!;
  const availability = ctx.deps.router.selectDirect(plan, lane);
  if (availability === Availability.Available) return NextMember.Picked;
  const shared = ctx.deps.shared;
  const cell = lane.compiled.defaultCellSlot;
  const nowMs = ctx.deps.clock.epochMs();
  // A dead (hard-down) lane's cooldown is genuine; budget and capacity get the 2 s floor.
  const hintMs =
    availability === Availability.Dead ? shared.breakers.cooldownRemainingMs(cell, nowMs) || null : recoveryHintMs(shared, availability, cell, nowMs);
  end(ctx, Disposition.Exhausted, errorAnswer('exhausted', `lane "${lane.compiled.name}" is unavailable`, Math.ceil((hintMs ?? 2000) / 1000)));
  return NextMember.Ended;
}
