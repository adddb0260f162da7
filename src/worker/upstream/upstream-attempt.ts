// One upstream attempt as undici's request handler, in undici's own handler calls (onConnect,
// onHeaders, onData, onComplete, onError) rather than the controller form (onRequestStart,
// onResponseStart, ...). undici runs a controller-form handler through an adapter that makes
// two objects per request and turns every response's raw headers, and its trailers, into
// objects (parseHeaders); the success path reads two headers, so that was most of a
// microsecond per request for nothing (docs/decisions/178-undici-own-handler-calls.md).
// This object is also the attempt's controller (pause, resume, abort), as undici's adapter
// was, and the exchange compares it with its current attempt to ignore a late callback of an
// earlier one. undici 7 calls these directly (they are marked deprecated in its types, and a
// major version that drops them must bring this file back to the controller form).
import type { Buffer } from 'node:buffer';
import type { Dispatcher } from 'undici';

/** What the relay and the timeouts do to an attempt in flight. */
export interface AttemptControl {
  readonly aborted: boolean;
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  abort(reason: Error): void;
}

/** The exchange's side of an attempt (each call names the attempt it comes from). */
export interface AttemptOwner {
  attemptConnected(attempt: UpstreamAttempt): void;
  attemptHead(attempt: UpstreamAttempt, statusCode: number, rawHeaders: Buffer[]): void;
  attemptData(attempt: UpstreamAttempt, chunk: Buffer): void;
  attemptEnd(attempt: UpstreamAttempt): void;
  attemptError(attempt: UpstreamAttempt, err: Error): void;
}

export class UpstreamAttempt implements AttemptControl, Dispatcher.DispatchHandler {
  aborted = false;
  paused = false;
  private abortRequest: ((err?: Error) => void) | null = null;
  private resumeReading: (() => void) | null = null;

  constructor(private readonly owner: AttemptOwner) {}

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.resumeReading?.();
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortRequest?.(reason);
  }

  // ---- undici ----

  onConnect(abort: (err?: Error) => void): void {
    this.abortRequest = abort;
    this.owner.attemptConnected(this);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    this.resumeReading = resume;
    this.owner.attemptHead(this, statusCode, rawHeaders);
    return !this.paused;
  }

  onData(chunk: Buffer): boolean {
    this.owner.attemptData(this, chunk);
    return !this.paused;
  }

  onComplete(): void {
    this.owner.attemptEnd(this);
  }

  onError(err: Error): void {
    this.owner.attemptError(this, err);
  }
}
