// The last failure of a request's attempts before the first byte: kept while the attempt loop
// fails over, and answered when no member is left -- the upstream's own error as is when the
// caller speaks the lane's protocol, translated to the caller's protocol otherwise, or the
// gateway's error when the failure was not an upstream answer (a connect error, a timeout).
import type { ErrorKind } from '../../../shared/errors.js';
import type { Codec } from '../../../shared/protocols/codec.js';
import { AttemptOutcome } from '../../../shared/routing/attempt-outcome.js';
import { errorAnswer, wholeAnswer, type Answer } from '../end/answer.js';
import { relayableHeaders } from '../relay/error-headers.js';
import type { RelayState } from '../relay/relay-state.js';

/** The gateway's error kind for an upstream HTTP status it relays across protocols. */
function kindForUpstreamStatus(status: number): ErrorKind {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'model_not_found';
  if (status === 413) return 'body_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 504 || status === 408) return 'upstream_timeout';
  return 'upstream_error';
}

export class LastFailure {
  outcome = AttemptOutcome.Ok;
  /** 0: the failure was not an upstream answer (`kind` and `message` say what it was). */
  private status = 0;
  private text = '';
  private contentType = '';
  private retryAfter = '';
  private headers: Record<string, string | string[] | undefined> | null = null;
  /** The protocol of the lane that answered. */
  private codec: Codec | null = null;
  private kind: ErrorKind = 'upstream_error';
  private message = '';

  /** A failure the gateway saw (no upstream answer). */
  private local(outcome: AttemptOutcome, kind: ErrorKind, message: string): void {
    this.outcome = outcome;
    this.status = 0;
    this.kind = kind;
    this.message = message;
  }

  /** The connection failed or timed out before the response head. */
  transport(outcome: AttemptOutcome): void {
    if (outcome === AttemptOutcome.AttemptTimeout) this.local(outcome, 'upstream_timeout', 'the upstream provider timed out');
    else this.local(outcome, 'upstream_error', 'the upstream provider connection failed');
  }

  /** A 2xx body that could not be read (nothing reached the caller: another member may answer). */
  unreadable(): void {
    this.local(AttemptOutcome.Transient, 'upstream_error', 'the upstream response could not be read');
  }

  /** An upstream error answer, read whole (up to the cap) into `text`. */
  answered(outcome: AttemptOutcome, relay: RelayState, text: string, laneCodec: Codec): void {
    this.outcome = outcome;
    this.status = relay.status;
    this.text = text;
    this.contentType = relay.contentType;
    this.retryAfter = relay.retryAfter;
    this.headers = relay.errorHeaders;
    this.codec = laneCodec;
    this.kind = kindForUpstreamStatus(relay.status);
    this.message = `upstream answered ${relay.status}`;
  }

  /** What the caller is answered, in `callerCodec`'s protocol. */
  answer(callerCodec: Codec): Answer {
    const status = this.status;
    if (status === 0) return errorAnswer(this.kind, this.message);
    // Same protocol: the vendor's own error, body and headers, is already in the caller's shape.
    if (this.codec === callerCodec) return wholeAnswer(status, relayableHeaders(callerCodec.name, this.headers, this.contentType), this.text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.text);
    } catch {
      parsed = undefined;
    }
    const retryAfterSecs = this.retryAfter !== '' ? Number(this.retryAfter) || undefined : undefined;
    return errorAnswer(this.kind, this.codec!.upstreamErrorMessage(status, parsed), retryAfterSecs);
  }
}
