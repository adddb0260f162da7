// The gate step: the request-stage taps, then the gate hooks of the request's pool (its own and
// the global ones; a direct route asks the global ones) -- abstain, an order of the members, a
// rewrite of the body (prompt: rw), or a refusal answered with the gate's own status. A pool
// without gates costs one pointer check; a gate's answer comes over the wire (a promise).
import { randomUUID } from 'node:crypto';
import type { ErrorKind } from '../../../shared/errors.js';
import { NO_STRING_SPAN } from '../../../shared/protocols/framing/top-level-members.js';
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { GateVerdict, type GateDecision, type RouteGate } from '../../hooks/route-gate.js';
import { Parked, type RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { end } from '../end/end.js';
import { tap, tapsOf } from '../end/observe.js';
import { resumeAfterStep } from '../steps.js';

/** A gate whose answer could not be had at all (a bug in a gate, not a hook failure): route by SWRR. */
const GATE_ABSTAIN: GateDecision = Object.freeze({ verdict: GateVerdict.Abstain, order: [], status: 0, message: '' });

export function gateStep(ctx: RequestContext): boolean {
  const pool = ctx.pool;
  const gate: RouteGate | null = pool !== null ? pool.gate : ctx.runtime.directGate(ctx.lane!);
  const taps = tapsOf(ctx);
  if (ctx.runtime.config.logs.enabled || gate !== null) ctx.requestId = randomUUID();
  if (taps !== null) {
    ctx.taps = taps;
    if (taps.wants('request')) tap(ctx, 'request');
  }
  if (gate === null) return true;
  const name = pool !== null ? pool.compiled.name : '';
  const decision = gate.decide(name, pool !== null ? pool.members.length : 1, ctx);
  if (!(decision instanceof Promise)) return decided(ctx, decision);
  ctx.parked = Parked.Promise;
  decision.then(
    (d) => {
      if (!ctx.ended && decided(ctx, d)) resumeAfterStep(ctx);
    },
    () => {
      if (!ctx.ended && decided(ctx, GATE_ABSTAIN)) resumeAfterStep(ctx);
    },
  );
  return false;
}

/** The error kind nearest a gate's status, so each SDK raises its usual exception for that status. */
function kindOfGateStatus(status: number): ErrorKind {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'model_not_found';
    case 413:
      return 'body_too_large';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'exhausted' : 'invalid_request';
  }
}

/** Apply the gate's decision: refuse, or route (in its order, with its rewrite). */
function decided(ctx: RequestContext, decision: GateDecision): boolean {
  if (decision.verdict === GateVerdict.Reject) {
    const disposition = decision.status >= 500 ? Disposition.Exhausted : Disposition.ClientError;
    end(ctx, disposition, errorAnswer(kindOfGateStatus(decision.status), decision.message, undefined, null, decision.status));
    return false;
  }
  if (decision.verdict === GateVerdict.Reorder && ctx.pool !== null) ctx.gateOrder = decision.order;
  if (decision.body !== undefined) {
    // A prompt: rw gate's rewrite, applied before translation (and before same-protocol passthrough).
    ctx.head = decision.body;
    ctx.wholeBody = decision.body;
    ctx.bytes = null;
    ctx.heldStateToken = null;
    ctx.modelSpan = NO_STRING_SPAN;
    ctx.rawText = JSON.stringify(decision.body);
    ctx.decoded = null;
  }
  return true;
}
