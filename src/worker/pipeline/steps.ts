// Running a request's steps. A step is a plain top-level function over the request's context
// that either finishes its work and lets the next step run (returns true), or does not
// (returns false): it ended the request (end/end.ts), or it parked it (context.ts, Parked) and
// will resume the run itself when what it waits for comes. Kinds are compiled once as arrays of
// steps, so running one is a loop over an array: no closure, no promise, nothing allocated.
import type { RequestContext } from './context.js';
import { Parked } from './parked.js';

/** `true`: go on with the next step; `false`: the step ended or parked the request. */
export type Step = (ctx: RequestContext) => boolean;

/** Runs the steps from `ctx.step` until one ends or parks the request, or none is left. */
export function runSteps(ctx: RequestContext): void {
  const steps = ctx.kind.steps;
  while (!ctx.ended && ctx.step < steps.length) {
    if (!steps[ctx.step]!(ctx)) return;
    ctx.step++;
  }
}

/**
 * The step that parked on a promise is done: go on with the next one. Called by the step's own
 * continuation; a request that ended meanwhile (the caller went away) stays ended.
 */
export function resumeAfterStep(ctx: RequestContext): void {
  if (ctx.ended) return;
  ctx.parked = Parked.No;
  ctx.step++;
  runSteps(ctx);
}
