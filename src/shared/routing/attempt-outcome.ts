// Whose fault an attempt's end was, and what the request's end is called. Attempt outcomes
// drive the breaker (only the upstream's faults move it); dispositions are what the request's end
// records per (pool, lane) and what the metrics count; failover reasons label each hop.
// The names are the spec's where it names them (failure dispositions, failover reasons).

/** How one attempt on one lane ended. */
export const enum AttemptOutcome {
  Ok = 0,
  /** 5xx, 429, or the connection reset before the response head. Moves the breaker. */
  Transient = 1,
  /** The connection could not be made (refused, unreachable, connect timeout). Moves the breaker. */
  Connect = 2,
  /** The upstream itself answered 408/504. Moves the breaker. */
  UpstreamTimeout = 3,
  /** Our per-attempt deadline passed before the response head. Moves the breaker. */
  AttemptTimeout = 4,
  /** 402 or a billing/quota error body: hard-down, the request fails over. */
  HardDownBilling = 5,
  /** 401/403 from the upstream: hard-down, the error is relayed to the caller. */
  HardDownAuth = 6,
  /** A 400 saying the prompt exceeds the model's context: another lane may take it. No breaker move. */
  ContextLength = 7,
  /** Any other 4xx: relayed as is, the caller's problem. No breaker move. */
  ClientError = 8,
  /** The caller went away. No breaker move. */
  CallerAbort = 9,
  /** The request could not be translated to the lane's protocol. No breaker move. */
  Untranslatable = 10,
  /** No upstream credential for the lane's provider. No breaker move. */
  MissingCredential = 11,
  /** The upstream broke after the first byte (stream cut, error event, bad frame). Moves the breaker. */
  MidStream = 12,
}

/** The end of a request, recorded once by its end (src/worker/pipeline/end/end.ts). */
export const enum Disposition {
  Ok = 0,
  ClientError = 1,
  Untranslatable = 2,
  MissingCredential = 3,
  CallerAbort = 4,
  Exhausted = 5,
  TransientUpstream = 6,
  AttemptTimeout = 7,
  HardDown = 8,
  ContextLength = 9,
  // The gateway's own refusals, before any attempt (each answered in the caller's protocol):
  /** 401: no valid credential for the auth chain. */
  Unauthenticated = 10,
  /** 403: a disabled key, a target outside its allowed_pools, a frozen group. */
  Forbidden = 11,
  /** 429: a requests, tokens or concurrent limit of the key or its group chain. */
  RateLimited = 12,
  /** The quota answer: a budget limit of the key or its group chain. */
  QuotaExceeded = 13,
  /** What the caller sent cannot be served as sent: 400, 404 (no such route or model), 405, 413, 415. */
  InvalidRequest = 14,
  /** 503 from the worker itself: over its in-flight limit, or draining. */
  Shed = 15,
}

export const DISPOSITION_NAMES = [
  'ok',
  'client_error',
  'untranslatable',
  'missing_credential',
  'caller_abort',
  'exhausted',
  'transient_upstream',
  'attempt_timeout',
  'hard_down',
  'context_length',
  'unauthenticated',
  'forbidden',
  'rate_limited',
  'quota_exceeded',
  'invalid_request',
  'shed',
] as const;

export const enum FailoverReason {
  None = -1,
  Timeout = 0,
  Connect = 1,
  TransientUpstream = 2,
  AttemptTimeout = 3,
  HardDown = 4,
  ContextLength = 5,
}

export const FAILOVER_REASON_NAMES = ['timeout', 'connect', 'transient_upstream', 'attempt_timeout', 'hard_down', 'context_length'] as const;

/** True for the outcomes that are the upstream's fault and count against the lane. */
export function movesBreaker(outcome: AttemptOutcome): boolean {
  switch (outcome) {
    case AttemptOutcome.Transient:
    case AttemptOutcome.Connect:
    case AttemptOutcome.UpstreamTimeout:
    case AttemptOutcome.AttemptTimeout:
    case AttemptOutcome.HardDownBilling:
    case AttemptOutcome.HardDownAuth:
    case AttemptOutcome.MidStream:
      return true;
    default:
      return false;
  }
}

/** The disposition a request gets when `outcome` is how its last attempt ended. */
export function dispositionOf(outcome: AttemptOutcome): Disposition {
  switch (outcome) {
    case AttemptOutcome.Ok:
      return Disposition.Ok;
    case AttemptOutcome.Transient:
    case AttemptOutcome.Connect:
    case AttemptOutcome.UpstreamTimeout:
    case AttemptOutcome.MidStream:
      return Disposition.TransientUpstream;
    case AttemptOutcome.AttemptTimeout:
      return Disposition.AttemptTimeout;
    case AttemptOutcome.HardDownBilling:
    case AttemptOutcome.HardDownAuth:
      return Disposition.HardDown;
    case AttemptOutcome.ContextLength:
      return Disposition.ContextLength;
    case AttemptOutcome.ClientError:
      return Disposition.ClientError;
    case AttemptOutcome.CallerAbort:
      return Disposition.CallerAbort;
    case AttemptOutcome.Untranslatable:
      return Disposition.Untranslatable;
    case AttemptOutcome.MissingCredential:
      return Disposition.MissingCredential;
  }
}

/** The failover reason of a failed attempt before the first byte, or None when it does not fail over. */
export function failoverReasonOf(outcome: AttemptOutcome): FailoverReason {
  switch (outcome) {
    case AttemptOutcome.Transient:
      return FailoverReason.TransientUpstream;
    case AttemptOutcome.Connect:
      return FailoverReason.Connect;
    case AttemptOutcome.UpstreamTimeout:
      return FailoverReason.Timeout;
    case AttemptOutcome.AttemptTimeout:
      return FailoverReason.AttemptTimeout;
    case AttemptOutcome.HardDownBilling:
      return FailoverReason.HardDown;
    case AttemptOutcome.ContextLength:
      return FailoverReason.ContextLength;
    default:
      return FailoverReason.None;
  }
}

// Each vendor's wording of "the prompt is longer than the model's context" (OpenAI and
// Responses `context_length_exceeded` / "maximum context length", Anthropic "prompt is too
// long", Gemini "input token count ... exceeds the maximum", Bedrock "input is too long" /
// "too many input tokens", Ollama "exceeds the context length"). Matched on the body text, so
// no provider is named in code.
const CONTEXT_LENGTH =
  /context_length_exceeded|maximum context length|context window|exceeds the context length|prompt is too long|input is too long|too many input tokens|input token count[^.]*exceeds/i;
// Billing and quota wording: OpenAI's `insufficient_quota`, Anthropic's "credit balance is too
// low", generic "billing".
const BILLING = /insufficient_quota|credit balance is too low|billing/i;

/** Classifies an upstream error answer (status outside 2xx) by status and body text. */
export function outcomeOfErrorStatus(status: number, bodyText: string): AttemptOutcome {
  if (status === 402) return AttemptOutcome.HardDownBilling;
  if (status >= 400 && status < 500 && BILLING.test(bodyText)) return AttemptOutcome.HardDownBilling;
  if (status === 401 || status === 403) return AttemptOutcome.HardDownAuth;
  if (status === 408 || status === 504) return AttemptOutcome.UpstreamTimeout;
  if (status === 429 || status >= 500) return AttemptOutcome.Transient;
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_LENGTH.test(bodyText)) return AttemptOutcome.ContextLength;
  return AttemptOutcome.ClientError;
}

/** Classifies a transport error before the response head (undici error codes). */
export function outcomeOfTransportError(code: string | undefined, attemptDeadlinePassed: boolean): AttemptOutcome {
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || attemptDeadlinePassed) return AttemptOutcome.AttemptTimeout;
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'EAI_AGAIN'
  ) {
    return AttemptOutcome.Connect;
  }
  return AttemptOutcome.Transient;
}

/** Retry-After (delta seconds or an HTTP date) in ms; 0 when absent or unreadable. */
export function retryAfterMs(header: string, nowMs: number): number {
  if (header === '') return 0;
  const secs = Number(header);
  if (Number.isFinite(secs)) return secs > 0 ? Math.round(secs * 1000) : 0;
  const at = Date.parse(header);
  return Number.isFinite(at) && at > nowMs ? at - nowMs : 0;
}
