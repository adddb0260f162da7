// The disposition of a refusal the gateway makes itself, by the error it answers with.
import type { ErrorKind } from '../../../shared/errors.js';
import { Disposition } from '../../../shared/routing/attempt-outcome.js';

export function refusalDisposition(kind: ErrorKind): Disposition {
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
