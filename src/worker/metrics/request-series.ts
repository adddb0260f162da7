// Counting one finished request: gateway_requests_total{ingress_protocol, pool, outcome} and
// gateway_request_duration_seconds{ingress_protocol, pool}. Called once per request, by
// the request's end (src/worker/pipeline/end/account.ts), whatever the exit. Two atomic
// adds and a bucket search: nothing allocated, no message sent.
import { performance } from 'node:perf_hooks';
import type { PoolMetricSlots } from '../../shared/config/compiled.js';
import { PROTOCOL_INDEX, RequestOutcome, requestIndex } from '../../shared/metrics/catalog.js';
import type { ProtocolName } from '../../shared/model/types.js';
import { Disposition } from '../../shared/routing/attempt-outcome.js';
import type { SharedState } from '../../shared/sab/index.js';

/**
 * The spec's outcome of a disposition, by what the caller was answered: 2xx ok; the caller's
 * own 4xx (a relayed 4xx, an untranslatable request, a prompt over the context, a caller who
 * went away) client_error; the 503 of an exhausted pool exhausted; every other upstream or
 * gateway failure error.
 */
export function outcomeOf(disposition: Disposition): RequestOutcome {
  switch (disposition) {
    case Disposition.Ok:
      return RequestOutcome.Ok;
    case Disposition.ClientError:
    case Disposition.Untranslatable:
    case Disposition.CallerAbort:
    case Disposition.ContextLength:
    case Disposition.Unauthenticated:
    case Disposition.Forbidden:
    case Disposition.RateLimited:
    case Disposition.QuotaExceeded:
    case Disposition.InvalidRequest:
      return RequestOutcome.ClientError;
    case Disposition.Exhausted:
    case Disposition.Shed:
      return RequestOutcome.Exhausted;
    default:
      return RequestOutcome.Error;
  }
}

/** `startedMs` is the request's performance.now() at arrival (IngressRequest.startedMs); `nowMs` its end. */
export function countRequest(
  shared: SharedState,
  slots: PoolMetricSlots,
  protocol: ProtocolName,
  outcome: RequestOutcome,
  startedMs: number,
  nowMs = performance.now(),
): void {
  const p = PROTOCOL_INDEX[protocol];
  shared.metrics.counterAdd(slots.requests[requestIndex(p, outcome)]!);
  shared.metrics.observe(slots.duration[p]!, (nowMs - startedMs) / 1000);
}
