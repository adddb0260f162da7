// One traced request's ids and what the request path tells it as it goes: each attempt sent
// (its span id goes upstream in traceparent) and ended, and what the answer said (finish
// reasons, the response model) when the relay passes it by. Made only for a sampled request
// (beginTrace); everything else about the spans is built at the request's end (span-builder.ts).
import type { Codec, StreamDecoder } from '../../shared/protocols/codec.js';
import type { CompiledTracing } from '../../shared/config/compiled.js';
import type { ModelResponse, StreamEvent } from '../../shared/model/types.js';
import { AttemptOutcome } from '../../shared/routing/attempt-outcome.js';
import type { LaneRuntime } from '../runtime.js';
import type { AttemptRecord } from './request-summary.js';
import { formatTraceparent, parseTraceparent, randomId } from './traceparent.js';

export class RequestTrace {
  readonly serverSpanId = randomId(8);
  readonly attempts: AttemptRecord[] = [];
  readonly finishReasons: string[] = [];
  responseModel = '';
  /** Decodes a same-protocol stream beside the relay, only to see its finish (observeChunk). */
  private observer: StreamDecoder | null = null;
  private observing = true;

  constructor(
    readonly traceId: string,
    /** The caller's span id ("" when the gateway started the trace). */
    readonly parentSpanId: string,
  ) {}

  /** An attempt on `lane` is being sent at `sentMs`: the traceparent header it carries upstream. */
  attemptSent(lane: LaneRuntime, sentMs: number): string {
    const spanId = randomId(8);
    const provider = lane.provider;
    this.attempts.push({
      spanId,
      lane: lane.compiled.name,
      provider: provider.compiled.name,
      protocol: provider.compiled.protocol,
      upstreamModel: lane.compiled.upstreamModel,
      origin: provider.compiled.origin,
      sentMs,
      endedMs: 0,
      outcome: AttemptOutcome.Ok,
      status: 0,
    });
    this.finishReasons.length = 0;
    this.responseModel = '';
    this.observer = null;
    this.observing = true;
    return formatTraceparent(this.traceId, spanId, true);
  }

  /** The attempt in flight ended (`status`: the upstream's, 0 when none came). */
  attemptEnded(outcome: AttemptOutcome, status: number, endedMs: number): void {
    const last = this.attempts[this.attempts.length - 1];
    if (last === undefined || last.endedMs !== 0) return;
    last.outcome = outcome;
    last.status = status;
    last.endedMs = endedMs;
  }

  /** A translated stream's event or a decoded answer went by. */
  observeEvent(event: StreamEvent): void {
    if (event.type === 'finish') this.finishReasons.push(event.reason);
    else if (event.type === 'start' && event.model !== '' && this.responseModel === '') this.responseModel = event.model;
  }

  observeResponse(response: ModelResponse): void {
    this.finishReasons.push(response.finishReason);
    if (response.model !== '') this.responseModel = response.model;
  }

  /** A same-protocol answer's body (not streamed): decoded once for its finish and model. */
  observeBody(codec: Codec, body: Uint8Array): void {
    try {
      this.observeResponse(codec.decodeResponse(JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'))));
    } catch {
      // Not readable as the lane's protocol: the span goes without finish reasons.
    }
  }

  /** A same-protocol stream's chunk: a decoder of the lane's protocol reads it too (no lane memo: the relay's own stays as it is). */
  observeChunk(lane: LaneRuntime, chunk: Uint8Array): void {
    if (!this.observing) return;
    try {
      this.observer ??= lane.provider.codec.createStreamDecoder();
      for (const event of this.observer.push(chunk)) this.observeEvent(event);
    } catch {
      this.observing = false; // never again for this attempt: the relay, not the observer, judges the stream
    }
  }

  /** The same-protocol stream ended. */
  observeEnd(): void {
    if (!this.observing || this.observer === null) return;
    try {
      for (const event of this.observer.finish()) this.observeEvent(event);
    } catch {
      this.observing = false;
    }
  }
}

/**
 * The trace of a request that arrived with `traceparent` ('' when none), or null when it is not
 * sampled: a caller's traceparent decides by its sampled flag (parent-based), otherwise
 * `sample_ratio` does. `random` is injected for tests.
 */
export function beginTrace(tracing: CompiledTracing, traceparent: string, random: () => number = Math.random): RequestTrace | null {
  const caller = parseTraceparent(traceparent);
  if (caller !== null) return caller.sampled ? new RequestTrace(caller.traceId, caller.spanId) : null;
  if (tracing.sampleRatio < 1 && !(random() < tracing.sampleRatio)) return null;
  return new RequestTrace(randomId(16), '');
}
