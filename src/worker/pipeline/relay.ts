// Relaying one attempt's successful answer back to the caller: same protocol (bytes pass
// through, usage sniffed) or translated (decoded and re-encoded chunk by chunk), streamed or
// buffered; an error answer is buffered for the exchange to classify. Top-level functions
// over the request's own fields (RelayState), so nothing here allocates a closure.
import { Buffer } from 'node:buffer';
import type { Usage } from '../../shared/model/types.js';
import type { Codec, PassthroughBytes, PassthroughStream, StreamDecoder, StreamEncoder } from '../../shared/protocols/codec.js';
import type { LaneRuntime, Runtime } from '../runtime.js';
import type { ClientResponse } from './client.js';
import { ERROR_BODY_CAP_BYTES, joined, passthroughUsage } from './relay-helpers.js';
import { headerObject, rawHeader } from '../upstream/raw-headers.js';
import type { AttemptControl } from '../upstream/upstream-attempt.js';
import type { RequestTrace } from '../tracing/request-trace.js';

/** How the current attempt's response travels back. */
export const enum Relay {
  /** Not decided yet (no response start). */
  None,
  /** Same protocol, streamed: bytes pass through, usage sniffed. */
  PassStream,
  /** Same protocol, not streamed: buffered (for usage), written whole. */
  PassBody,
  /** Same protocol body over the translate cap: streamed through unparsed, billed zero. */
  PassOversize,
  /** Cross protocol, streamed: decoded and re-encoded chunk by chunk. */
  TranslateStream,
  /** Cross protocol, not streamed: buffered, decoded, re-encoded. */
  TranslateBody,
  /** Upstream answered an error status: buffered, then failed over or relayed. */
  ErrorBody,
  /** The attempt already ended (the exchange decided): later callbacks are ignored. */
  Done,
}

/** The request fields relaying reads and writes (the Exchange implements it). */
export interface RelayState {
  readonly runtime: Runtime;
  readonly client: ClientResponse;
  readonly codec: Codec;
  readonly lane: LaneRuntime;
  readonly stream: boolean;
  /** The request body as far as the same-protocol path reads it (exchange.ts). */
  readonly head: unknown;
  readonly wantStreamUsage: boolean;
  controller: AttemptControl | null;
  relay: Relay;
  status: number;
  contentType: string;
  retryAfter: string;
  chunks: Buffer[];
  bufferedBytes: number;
  passthrough: PassthroughStream | null;
  decoder: StreamDecoder | null;
  encoder: StreamEncoder | null;
  usage: Usage | null;
  truncated: boolean;
  errorHeaders: Record<string, string | string[] | undefined> | null;
  resumeUpstream: (() => void) | null;
  /** performance.now() when the first byte of this attempt's successful answer was written; 0 = none yet. */
  firstByteMs: number;
  /** Called once, right before the first bytes of a successful answer are written. */
  firstByteWritten(): void;
  /** A traced request's trace: it sees the answer's finish reasons and model as they pass. */
  readonly trace: RequestTrace | null;
  overTranslateCap(): void;
  translatedStreamFailed(err: unknown): void;
  /** The answer is complete: called once, right before its last bytes are written. */
  completing(): void;
}

export function resetRelay(s: RelayState): void {
  s.controller = null;
  s.relay = Relay.None;
  s.status = 0;
  s.contentType = '';
  s.retryAfter = '';
  s.chunks = [];
  s.bufferedBytes = 0;
  s.passthrough = null;
  s.decoder = null;
  s.encoder = null;
  s.usage = null;
  s.truncated = false;
  s.errorHeaders = null;
  s.firstByteMs = 0;
}

/** The response head: `rawHeaders` as undici read them (only an error answer's are all decoded). */
export function relayStart(s: RelayState, statusCode: number, rawHeaders: Buffer[]): void {
  s.status = statusCode;
  s.contentType = rawHeader(rawHeaders, 'content-type');
  s.retryAfter = rawHeader(rawHeaders, 'retry-after');
  if (statusCode < 200 || statusCode >= 300) {
    s.relay = Relay.ErrorBody;
    s.errorHeaders = headerObject(rawHeaders);
    return;
  }
  const same = s.lane.provider.codec === s.codec;
  if (!s.stream) {
    s.relay = same ? Relay.PassBody : Relay.TranslateBody;
    return;
  }
  if (same) {
    s.relay = Relay.PassStream;
    s.passthrough = s.codec.createPassthroughStream(s.head, s.lane);
    s.client.startStream(statusCode, { 'content-type': s.contentType || s.codec.streamContentType });
  } else {
    s.relay = Relay.TranslateStream;
    s.decoder = s.lane.provider.codec.createStreamDecoder(s.lane);
    s.encoder = s.codec.createStreamEncoder();
    if (s.encoder.textDeltaTemplate !== undefined) s.decoder.emitTextRuns?.();
    s.client.startStream(200, { 'content-type': s.codec.streamContentType });
  }
}

export function relayData(s: RelayState, controller: AttemptControl, chunk: Buffer): void {
  switch (s.relay) {
    case Relay.PassStream: {
      if (s.trace !== null) s.trace.observeChunk(s.lane, chunk);
      const out = s.passthrough!.push(chunk);
      if (out.length > 0) writeOrPause(s, controller, out);
      return;
    }
    case Relay.TranslateStream: {
      let events: ReturnType<StreamDecoder['push']>;
      try {
        events = s.decoder!.push(chunk);
      } catch (err) {
        s.translatedStreamFailed(err);
        return;
      }
      writeEvents(s, controller, events);
      return;
    }
    case Relay.PassOversize:
      writeOrPause(s, controller, chunk);
      return;
    case Relay.PassBody:
    case Relay.TranslateBody:
      s.chunks.push(chunk);
      s.bufferedBytes += chunk.length;
      if (s.bufferedBytes > s.runtime.config.limits.translateBodyCapBytes) overCap(s);
      return;
    case Relay.ErrorBody:
      if (s.bufferedBytes < ERROR_BODY_CAP_BYTES) {
        s.chunks.push(chunk);
        s.bufferedBytes += chunk.length;
      }
      return;
    default:
      return;
  }
}

/**
 * The upstream finished a successful answer: write its end. False when a buffered body could
 * not be read and nothing reached the caller (the exchange may fail over).
 */
export function relayEnd(s: RelayState): boolean {
  switch (s.relay) {
    case Relay.PassStream: {
      const last = s.passthrough!.end();
      s.usage = s.passthrough!.usage();
      if (s.trace !== null) s.trace.observeEnd();
      s.completing();
      s.client.end(last);
      return true;
    }
    case Relay.TranslateStream: {
      let events: ReturnType<StreamDecoder['finish']>;
      try {
        events = s.decoder!.finish();
      } catch (err) {
        s.translatedStreamFailed(err);
        return true; // translatedStreamFailed already ended the attempt and the request
      }
      writeEvents(s, null, events);
      return true;
    }
    case Relay.PassOversize:
      s.truncated = true;
      s.completing();
      s.client.end();
      return true;
    case Relay.PassBody: {
      // The caller gets the upstream's bytes as they came; only the usage field is read.
      const body = bufferedBody(s);
      s.usage = passthroughUsage(s.codec, body, s.lane);
      if (s.trace !== null) s.trace.observeBody(s.codec, body);
      s.completing();
      s.client.respond(s.status, { 'content-type': s.contentType || 'application/json' }, body);
      return true;
    }
    case Relay.TranslateBody:
      return finishTranslateBody(s);
    default:
      s.completing();
      return true;
  }
}

function writeOrPause(s: RelayState, controller: AttemptControl, out: PassthroughBytes): void {
  if (s.firstByteMs === 0) s.firstByteWritten();
  if (!s.client.write(out) && !s.client.aborted) {
    controller.pause();
    s.client.onDrain((s.resumeUpstream ??= () => s.controller?.resume()));
  }
}

/**
 * Encodes the events one upstream chunk completed and writes them as ONE write (every write
 * is a send): text framings concatenate; a binary framing (Bedrock) gathers its frames.
 * With `controller` null the stream ends with these bytes.
 */
function writeEvents(s: RelayState, controller: AttemptControl | null, events: ReturnType<StreamDecoder['push']>): void {
  const encoder = s.encoder!;
  let text = '';
  let binary: Uint8Array[] | null = null;
  for (const event of events) {
    if (s.trace !== null) s.trace.observeEvent(event);
    if (event.type === 'usage') {
      s.usage = event.usage;
      if (!s.wantStreamUsage) continue;
    } else if (event.type === 'start' && event.model === '') {
      event.model = s.lane.compiled.upstreamModel; // protocols that do not echo the model
    }
    const out = encoder.encode(event);
    if (typeof out === 'string') {
      if (binary !== null && out.length > 0) binary.push(Buffer.from(out));
      else text += out;
    } else if (out.length > 0) {
      if (binary === null) binary = text.length > 0 ? [Buffer.from(text)] : [];
      binary.push(out);
    }
  }
  const bytes: string | Uint8Array = binary === null ? text : binary.length === 1 ? binary[0]! : joined(binary);
  if (controller === null) {
    s.completing();
    s.client.end(bytes);
  } else if (bytes.length > 0) writeOrPause(s, controller, bytes);
}

/** A same-protocol body over the cap streams through unparsed; a translated one cannot. */
function overCap(s: RelayState): void {
  if (s.relay === Relay.TranslateBody) {
    s.chunks = [];
    s.overTranslateCap();
    return;
  }
  s.relay = Relay.PassOversize;
  if (s.firstByteMs === 0) s.firstByteWritten();
  s.client.startStream(s.status, { 'content-type': s.contentType || 'application/json' });
  for (const c of s.chunks) s.client.write(c);
  s.chunks = [];
}

function bufferedBody(s: RelayState): Buffer {
  const whole = s.chunks.length === 1 ? s.chunks[0]! : Buffer.concat(s.chunks, s.bufferedBytes);
  s.chunks = [];
  return whole;
}

/** False when the upstream body could not be read (nothing was written to the caller). */
function finishTranslateBody(s: RelayState): boolean {
  const upstreamCodec = s.lane.provider.codec;
  let out: string;
  try {
    const resp = upstreamCodec.decodeResponse(JSON.parse(bufferedBody(s).toString('utf8')));
    if (resp.model === '') resp.model = s.lane.compiled.upstreamModel; // protocols that do not echo the model
    s.usage = resp.usage;
    if (s.trace !== null) s.trace.observeResponse(resp);
    out = s.codec.encodeResponse(resp);
  } catch {
    return false;
  }
  s.completing();
  s.client.respond(200, { 'content-type': 'application/json' }, out);
  return true;
}
