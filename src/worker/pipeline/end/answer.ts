// What the request's end writes to the caller, decided by the step that ends it. One class for
// every kind of answer (so the end reads one shape); the factories below name each kind.
import type { ErrorKind } from '../../../shared/errors.js';
import type { Refusal } from '../../governance/refusal.js';

export const enum AnswerKind {
  /** A gateway-made error, in the caller's protocol (`errorKind`, `message`, `retryAfterSecs`). */
  Error = 1,
  /** A complete response: `status`, `headers`, `body`. */
  Whole = 2,
  /** The end of a stream that already started: its last bytes (`body`, may be ''). */
  StreamTail = 3,
  /** A started stream ended by the protocol's own error event (`errorKind`, `message`). */
  StreamError = 4,
}

export class Answer {
  constructor(
    readonly kind: AnswerKind,
    /** Whole: the status. Error: a status that overrides the kind's (0: the kind's own). */
    readonly status: number,
    /** Whole: the headers. Error: headers added to the protocol's (null: none). */
    readonly headers: Readonly<Record<string, string>> | null,
    /** Whole: the body. StreamTail: the last bytes. */
    readonly body: string | Uint8Array,
    readonly errorKind: ErrorKind,
    readonly message: string,
    readonly retryAfterSecs: number | undefined,
  ) {}
}

/** A gateway-made error: `status` 0 takes the kind's status from the error table. */
export function errorAnswer(
  kind: ErrorKind,
  message: string,
  retryAfterSecs?: number,
  headers: Readonly<Record<string, string>> | null = null,
  status = 0,
): Answer {
  return new Answer(AnswerKind.Error, status, headers, '', kind, message, retryAfterSecs);
}

/** Authentication's or admission's refusal, as the error it answers. */
export function refusalAnswer(refusal: Refusal): Answer {
  return new Answer(AnswerKind.Error, 0, null, '', refusal.kind, refusal.message, refusal.retryAfterSecs);
}

export function wholeAnswer(status: number, headers: Readonly<Record<string, string>>, body: string | Uint8Array): Answer {
  return new Answer(AnswerKind.Whole, status, headers, body, 'internal', '', undefined);
}

export function streamTail(last: string | Uint8Array): Answer {
  return new Answer(AnswerKind.StreamTail, 0, null, last, 'internal', '', undefined);
}

export function streamError(kind: ErrorKind, message: string): Answer {
  return new Answer(AnswerKind.StreamError, 0, null, '', kind, message, undefined);
}
