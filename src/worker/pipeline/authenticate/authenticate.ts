// The authenticate step: who is calling, from the headers alone, before the body is parsed --
// nothing an unauthenticated caller sends is read past its headers (a SigV4 signature covers the
// body, so it waits for the bytes, and still parses nothing). A key verified before answers at
// once (the cache); the first time, the verification is a promise and the request parks on it.
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import { isSigV4 } from '../../auth/credential.js';
import type { AuthResult } from '../../auth/authenticate.js';
import { Refusal } from '../../governance/refusal.js';
import { Parked, type RequestContext } from '../context.js';
import { errorAnswer } from '../end/answer.js';
import { endRefused } from '../end/refused.js';
import { end } from '../end/end.js';
import { resumeAfterStep } from '../steps.js';

export function authenticateStep(ctx: RequestContext): boolean {
  const config = ctx.runtime.config;
  // The open front door asks nobody (and reads no clock: no expiry, no window is checked).
  if (config.auth.chain.length === 0) return true;
  const req = ctx.req;
  if (!req.bodyRead && isSigV4(req.authorization)) {
    ctx.parked = Parked.Body;
    return false;
  }
  ctx.nowSec = Math.floor(ctx.deps.clock.epochMs() / 1000);
  const result = ctx.deps.auth.authenticate(req, config, ctx.nowSec);
  if (!(result instanceof Promise)) return authenticated(ctx, result);
  ctx.parked = Parked.Promise;
  result.then(
    (r) => {
      if (ctx.ended) return;
      ctx.nowSec = Math.floor(ctx.deps.clock.epochMs() / 1000);
      if (authenticated(ctx, r)) resumeAfterStep(ctx);
    },
    () => end(ctx, Disposition.Unauthenticated, errorAnswer('internal', 'the key could not be verified')),
  );
  return false;
}

function authenticated(ctx: RequestContext, result: AuthResult): boolean {
  if (result instanceof Refusal) return endRefused(ctx, result);
  ctx.key = result;
  return true;
}
