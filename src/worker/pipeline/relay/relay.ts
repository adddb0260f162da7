// Relaying one attempt's answer back to the caller: same protocol (bytes pass through, usage
// sniffed) or translated (decoded and re-encoded chunk by chunk), streamed or buffered; an
// error answer is buffered for the attempt loop to classify. The functions say what happened
// (a RelayVerdict) and the attempt loop decides what follows: nothing here ends the request.
// Top-level functions over the attempt's RelayState, so nothing here allocates a closure.
import { Buffer } from 'node:buffer';
import type { PassthroughBytes, StreamDecoder } from '../../../shared/protocols/codec.js';
import { GatewayError } from '../../../shared/errors.js';
import { headerObject, rawHeader } from '../../upstream/raw-headers.js';
import type { AttemptControl } from '../../upstream/upstream-attempt.js';
import type { RequestContext } from '../context.js';
import { errorAnswer, streamTail, wholeAnswer, type Answer } from '../end/answer.js';
import { ERROR_BODY_CAP_BYTES } from './error-headers.js';
import { joined } from './joined.js';
import { firstByte } from './first-byte.js';
import { passthroughUsage } from './passthrough-usage.js';
import { Relay, type RelayState } from './relay-state.js';

/** What a piece of the upstream's answer came to. */
export const enum RelayVerdict {
  /** Relayed (or buffered); the attempt goes on. */
  Continue = 0,
  /** The answer is complete: `RelayState.answer` is what the request ends with. */
  Complete = 1,
  /** A buffered body could not be read: nothing reached the caller, another member may answer. */
  Unreadable = 2,
  /** A translated stream broke (an error event, a bad frame, an early end): `RelayState.brokeMessage` says why. */
  StreamBroke = 3,
  /** A translated non-stream answer is larger than the translate cap: it cannot be translated. */
  OverTranslateCap = 4,
}

/** The response head: `rawHeaders` as undici read them (only an error answer's are all decoded). */
export function relayStart(s: RelayState, ctx: RequestContext, statusCode: number, rawHeaders: Buffer[]): void {
  s.status = statusCode;
  s.contentType = rawHeader(rawHeaders, 'content-type');
  s.retryAfter = rawHeader(rawHeaders, 'retry-after');
  if (statusCode < 200 || statusCode >= 300) {
    s.relay = Relay.ErrorBody;
    s.errorHeaders = headerObject(rawHeaders);
    return;
  }
  const lane = s.lane!;
  const codec = ctx.codec;
  const same = lane.provider.codec === codec;
  if (!ctx.stream) {
    s.relay = same ? Relay.PassBody : Relay.TranslateBody;
    return;
  }
  if (same) {
    s.relay = Relay.PassStream;
    s.passthrough = codec.createPassthroughStream(ctx.head, lane);
    ctx.client.startStream(statusCode, { 'content-type': s.contentType || codec.streamContentType });
  } else {
    s.relay = Relay.TranslateStream;
    s.decoder = lane.provider.codec.createStreamDecoder(lane);
    s.encoder = codec.createStreamEncoder();
    if (s.encoder.textDeltaTemplate !== undefined) s.decoder.emitTextRuns?.();
    ctx.client.startStream(200, { 'content-type': codec.streamContentType });
  }
}

export function relayData(s: RelayState, ctx: RequestContext, controller: AttemptControl, chunk: Buffer): RelayVerdict {
  switch (s.relay) {
    case Relay.PassStream: {
      if (ctx.trace !== null) ctx.trace.observeChunk(s.lane!, chunk);
      const out = s.passthrough!.push(chunk);
      if (out.length > 0) writeOrPause(s, ctx, controller, out);
      return RelayVerdict.Continue;
    }
    case Relay.TranslateStream: {
      let events: ReturnType<StreamDecoder['push']>;
      try {
        events = s.decoder!.push(chunk);
      } catch (err) {
        return broke(s, err);
      }
      writeEvents(s, ctx, controller, events);
      return RelayVerdict.Continue;
    }
    case Relay.PassOversize:
      writeOrPause(s, ctx, controller, chunk);
      return RelayVerdict.Continue;
    case Relay.PassBody:
    case Relay.TranslateBody:
      s.chunks.push(chunk);
      s.bufferedBytes += chunk.length;
      if (s.bufferedBytes > ctx.runtime.config.limits.translateBodyCapBytes) return overCap(s, ctx);
      return RelayVerdict.Continue;
    case Relay.ErrorBody:
      if (s.bufferedBytes < ERROR_BODY_CAP_BYTES) {
        s.chunks.push(chunk);
        s.bufferedBytes += chunk.length;
      }
      return RelayVerdict.Continue;
    default:
      return RelayVerdict.Continue;
  }
}

/** The upstream finished a successful answer: Complete with its last bytes in `s.answer`, or why not. */
export function relayEnd(s: RelayState, ctx: RequestContext): RelayVerdict {
  switch (s.relay) {
    case Relay.PassStream: {
      const last = s.passthrough!.end();
      s.usage = s.passthrough!.usage();
      if (ctx.trace !== null) ctx.trace.observeEnd();
      s.answer = streamTail(last);
      return RelayVerdict.Complete;
    }
    case Relay.TranslateStream: {
      let events: ReturnType<StreamDecoder['finish']>;
      try {
        events = s.decoder!.finish();
      } catch (err) {
        return broke(s, err);
      }
      s.answer = streamTail(encodeEvents(s, ctx, events));
      return RelayVerdict.Complete;
    }
    case Relay.PassOversize:
      s.truncated = true;
      s.answer = streamTail('');
      return RelayVerdict.Complete;
    // A buffered answer is read by the request's kind (kinds.ts): chat's are passedBody and translatedBody.
    case Relay.PassBody:
      return ctx.kind.passBody(s, ctx);
    case Relay.TranslateBody:
      return ctx.kind.translateBody(s, ctx);
    default:
      s.answer = streamTail('');
      return RelayVerdict.Complete;
  }
}

function broke(s: RelayState, err: unknown): RelayVerdict {
  s.brokeMessage = err instanceof GatewayError ? err.message : 'the upstream stream could not be read';
  return RelayVerdict.StreamBroke;
}

function writeOrPause(s: RelayState, ctx: RequestContext, controller: AttemptControl, out: PassthroughBytes): void {
  const client = ctx.client;
  if (s.firstByteMs === 0) firstByte(s, ctx, ctx.deps.clock.monoMs());
  if (!client.write(out) && !client.aborted) {
    controller.pause();
    client.onDrain((s.resumeUpstream ??= () => s.controller?.resume()));
  }
}

/** Encodes the events one upstream chunk completed and writes them as ONE write (every write is a send). */
function writeEvents(s: RelayState, ctx: RequestContext, controller: AttemptControl, events: ReturnType<StreamDecoder['push']>): void {
  const bytes = encodeEvents(s, ctx, events);
  if (bytes.length > 0) writeOrPause(s, ctx, controller, bytes);
}

/** The bytes of `events` in the caller's framing: text framings concatenate; a binary framing (Bedrock) gathers its frames. */
function encodeEvents(s: RelayState, ctx: RequestContext, events: ReturnType<StreamDecoder['push']>): string | Uint8Array {
  const encoder = s.encoder!;
  let text = '';
  let binary: Uint8Array[] | null = null;
  const trace = ctx.trace;
  for (const event of events) {
    if (trace !== null) trace.observeEvent(event);
    if (event.type === 'usage') {
      s.usage = event.usage;
      if (!ctx.wantStreamUsage) continue;
    } else if (event.type === 'start' && event.model === '') {
      event.model = s.lane!.compiled.upstreamModel; // protocols that do not echo the model
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
  return binary === null ? text : binary.length === 1 ? binary[0]! : joined(binary);
}

/** A same-protocol body over the cap streams through unparsed; a translated one cannot. */
function overCap(s: RelayState, ctx: RequestContext): RelayVerdict {
  if (s.relay === Relay.TranslateBody) {
    s.chunks = [];
    return RelayVerdict.OverTranslateCap;
  }
  s.relay = Relay.PassOversize;
  firstByte(s, ctx, ctx.deps.clock.monoMs());
  const client = ctx.client;
  client.startStream(s.status, { 'content-type': s.contentType || 'application/json' });
  for (const c of s.chunks) client.write(c);
  s.chunks = [];
  return RelayVerdict.Continue;
}

/** A same-protocol chat body: the caller gets the upstream's bytes as they came; only the usage field is read. */
export function passedBody(s: RelayState, ctx: RequestContext): RelayVerdict {
  const body = bufferedBody(s);
  s.usage = passthroughUsage(ctx.codec, body, s.lane);
  if (ctx.trace !== null) ctx.trace.observeBody(ctx.codec, body);
  s.answer = wholeAnswer(s.status, { 'content-type': s.contentType || 'application/json' }, body);
  return RelayVerdict.Complete;
}

/** The buffered answer, whole (the buffer is handed over: the state keeps none). */
export function bufferedBody(s: RelayState): Buffer {
  const whole = s.chunks.length === 1 ? s.chunks[0]! : Buffer.concat(s.chunks, s.bufferedBytes);
  s.chunks = [];
  return whole;
}

/** A cross-protocol chat body: decoded in the lane's protocol, encoded in the caller's. */
export function translatedBody(s: RelayState, ctx: RequestContext): RelayVerdict {
  const lane = s.lane!;
  let out: string;
  try {
    const resp = lane.provider.codec.decodeResponse(JSON.parse(bufferedBody(s).toString('utf8')));
    if (resp.model === '') resp.model = lane.compiled.upstreamModel; // protocols that do not echo the model
    s.usage = resp.usage;
    if (ctx.trace !== null) ctx.trace.observeResponse(resp);
    out = ctx.codec.encodeResponse(resp);
  } catch {
    return RelayVerdict.Unreadable;
  }
  s.answer = wholeAnswer(200, { 'content-type': 'application/json' }, out);
  return RelayVerdict.Complete;
}

/** A translated non-stream answer over the cap: the gateway's limit, not the lane's fault. */
export function overTranslateCapAnswer(capBytes: number): Answer {
  return errorAnswer(
    'upstream_error',
    `the upstream response is larger than the translation limit (advanced.translate_body_cap_bytes = ${capBytes}) and cannot be translated`,
  );
}

/** The error answer read so far (up to the cap), as text. */
export function errorBodyText(s: RelayState): string {
  const text = s.chunks.length === 1 ? s.chunks[0]!.toString('utf8') : Buffer.concat(s.chunks).toString('utf8');
  s.chunks = [];
  return text;
}
