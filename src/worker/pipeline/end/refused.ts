// A refusal the gateway makes itself (authentication, admission): its disposition by the error
// it answers with, and the request's end with the bucket that refused kept for the request log;
// and the end of a request whose body its kind's decoder could not read.
import { GatewayError, type ErrorKind } from '../../../shared/errors.js';
import { Disposition } from '../../../shared/routing/attempt-outcome.js';
import type { Refusal } from '../../governance/refusal.js';
import type { RequestContext } from '../context.js';
import { errorAnswer, refusalAnswer } from './answer.js';
import { end } from './end.js';

function refusalDisposition(kind: ErrorKind): Disposition {
  switch (kind) {
    case 'unauthorized':
      return Disposition.Unauthenticated;
    case 'forbidden':
      return Disposition.Forbidden;
    case 'rate_limited':
      return Disposition.RateLimited;
    case 'insufficient_quota':
      return Disposition.QuotaExceeded;
    case 'exhausted':
      return Disposition.Exhausted;
    default:
      return Disposition.InvalidRequest;
  }
}

/** Ends the request with `refusal`; false, for the step that made it to return. */
export function endRefused(ctx: RequestContext, refusal: Refusal): false {
  ctx.refusedBucket = refusal.bucket;
  end(ctx, refusalDisposition(refusal.kind), refusalAnswer(refusal));
  return false;
}

/** Ends a request its kind's decoder could not read ; false, for the step to return. */
export function endUndecodable(ctx: RequestContext, err: unknown, what: string): false {
  // Its own error when it threw one, else `the <what> request could not be read`.
  const answer = err instanceof GatewayError ? errorAnswer(err.kind, err.message) : errorAnswer('invalid_request', `the ${what} request could not be read`);
  end(ctx, Disposition.InvalidRequest, answer);
  return false;
}
