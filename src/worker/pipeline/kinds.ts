// The request kinds: each is the list of steps its requests run, in order (steps.ts runs them).
// A kind is data, compiled once: what differs between a chat request and a listing is which
// steps they run, not a branch inside the steps.
import { Disposition } from '../../shared/routing/attempt-outcome.js';
import { admitStep } from './admit/admit.js';
import { authenticateStep } from './authenticate/authenticate.js';
import type { RequestContext } from './context.js';
import { decodeStep } from './decode/decode.js';
import { dispatchStep } from './dispatch/dispatch.js';
import { errorAnswer } from './end/answer.js';
import { end } from './end/end.js';
import { gateStep } from './gate/gate.js';
import { listingAnswerStep, listingRouteStep, showStep } from './listing/listing.js';
import { routeStep } from './route/route.js';
import type { Step } from './steps.js';
import { targetStep } from './target/target.js';

export interface RequestKind {
  readonly name: string;
  readonly steps: readonly Step[];
  /** The caller went away while no attempt was in flight. */
  onCallerAbort(ctx: RequestContext): void;
  /** The body grew past the cap while it was read. */
  onBodyTooLarge(ctx: RequestContext): void;
}

function callerAborted(ctx: RequestContext): void {
  end(ctx, Disposition.CallerAbort, null);
}

function bodyTooLarge(ctx: RequestContext): void {
  end(ctx, Disposition.InvalidRequest, errorAnswer('body_too_large', `the request body is larger than ${ctx.runtime.config.limits.maxBodyBytes} bytes`));
}

function kind(name: string, steps: readonly Step[]): RequestKind {
  return Object.freeze({ name, steps: Object.freeze(steps), onCallerAbort: callerAborted, onBodyTooLarge: bodyTooLarge });
}

/** A chat (or completion) request in any of the six protocols, to a pool or a lane. */
export const CHAT = kind('chat', [routeStep, authenticateStep, decodeStep, targetStep, admitStep, gateStep, dispatchStep]);
/** A model listing (GET): answered by the gateway from its config, as the key may see it. */
export const LISTING = kind('listing', [listingRouteStep, authenticateStep, listingAnswerStep]);
/** Ollama's POST /api/show: a listing with a body. */
export const SHOW = kind('show', [routeStep, authenticateStep, decodeStep, showStep]);
/** An answer of the edge (unknown path, wrong method, shed...): made by whoever makes the context. */
export const EDGE = kind('edge', []);
