// One data-plane request from decode to the last byte: pick a member, dispatch upstream,
// relay (passthrough or translated, stream or not), fail over before the first byte, meter
// at the end. The Exchange object is also the undici dispatch handler of each attempt, so a
// request costs one object, not a closure per callback.
import type { Dispatcher } from 'undici';
import { GatewayError, type ErrorKind } from '../../shared/errors.js';
import type { ModelRequest, Usage } from '../../shared/model/types.js';
import type { Codec, PassthroughBytes, PassthroughStream, RouteInfo, StreamDecoder, StreamEncoder } from '../../shared/protocols/codec.js';
import type { LaneRuntime, PoolRuntime, Runtime } from '../runtime.js';
import type { LaneGauges } from '../lane-gauges.js';
import type { Metering } from '../metering.js';
import type { ClientResponse, IngressRequest } from './client.js';
import { endStreamWithError, kindForUpstreamStatus, respondError } from './respond-error.js';
import { topLevelValueText } from '../../shared/protocols/framing/json-field.js';
import { TranslationRefused } from '../../shared/protocols/refusal.js';
import { passthroughCredential, type OutgoingRequest } from '../upstream/auth/upstream-auth.js';

/** How the current attempt's successful response travels back. */
const enum Relay {
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
}

/** Errors before the first byte that another member may not repeat. */
function retryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

const ERROR_BODY_CAP_BYTES = 64 * 1024;

/**
 * Usage of a same-protocol non-stream body: only the usage field is parsed when the protocol
 * keeps usage in one field (the rest of the body may be large and is never needed).
 */
function passthroughUsage(codec: Codec, text: string): Usage | null {
  try {
    const field = codec.usageField;
    if (field === null) return codec.usageFromResponse(JSON.parse(text));
    const value = topLevelValueText(text, field);
    return value === undefined ? null : codec.usageFromResponse({ [field]: JSON.parse(value) });
  } catch {
    return null; // an unreadable body is relayed as is and billed zero tokens
  }
}

/** Headers that describe one hop's connection or framing, never relayed. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'server', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** An upstream answer's end-to-end headers, for relaying it as is. */
function relayableHeaders(headers: Record<string, string | string[] | undefined> | null, contentType: string): Record<string, string> {
  const out: Record<string, string> = { 'content-type': contentType || 'application/json' };
  if (headers === null) return out;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export class Exchange implements Dispatcher.DispatchHandler {
  // --- the request ---
  private raw = '';
  private body: unknown = undefined;
  private routeInfo: RouteInfo = {};
  private stream = false;
  private decoded: ModelRequest | null = null;
  private pool: PoolRuntime | null = null;
  /** Members already tried (bit per member index). */
  private tried = 0;
  private hops = 0;
  private deadlineMs = 0;

  // --- the current attempt ---
  private lane: LaneRuntime | null = null;
  private controller: Dispatcher.DispatchController | null = null;
  private relay = Relay.None;
  private status = 0;
  private contentType = '';
  private retryAfter = '';
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;
  private passthrough: PassthroughStream | null = null;
  private decoder: StreamDecoder | null = null;
  private encoder: StreamEncoder | null = null;
  private wantStreamUsage = true;
  private usage: Usage | null = null;
  private truncated = false;
  private permitHeld = false;
  /** The last upstream error answer, relayed when failover runs out of members. */
  private lastErrorStatus = 0;
  private lastErrorText = '';
  private lastErrorContentType = '';
  private lastErrorRetryAfter = '';
  /** Response headers of the last upstream error, relayed with it (e.g. Bedrock's x-amzn-errortype). */
  private lastErrorHeaders: Record<string, string | string[] | undefined> | null = null;
  private errorHeaders: Record<string, string | string[] | undefined> | null = null;
  /** Made on the first backpressure only (most requests never need it). */
  private resumeUpstream: (() => void) | null = null;

  constructor(
    private readonly runtime: Runtime,
    private readonly gauges: LaneGauges,
    private readonly metering: Metering,
    private readonly req: IngressRequest,
    private readonly client: ClientResponse,
    /** The caller's protocol (errors and responses are written in it). */
    private readonly codec: Codec,
  ) {
    client.onAbort(() => this.controller?.abort(new Error('client went away')));
  }

  /** Entry for a named protocol route or a direct route resolved to a pool or lane. */
  start(raw: string, body: unknown, routeInfo: RouteInfo, pool: PoolRuntime | null, lane: LaneRuntime | null): void {
    this.raw = raw;
    this.body = body;
    this.routeInfo = routeInfo;
    this.stream = this.codec.requestedStream(body, routeInfo);
    this.wantStreamUsage = this.codec.streamUsageRequested(body);
    this.pool = pool;
    const timeoutMs = pool !== null ? pool.compiled.timeoutMs : 120_000;
    this.deadlineMs = this.req.startedMs + timeoutMs;
    if (pool === null && lane !== null) {
      this.attemptLane(lane);
      return;
    }
    this.nextAttempt('exhausted', 'no pool member is available');
  }

  /** Pick the next usable member and send to it, or answer the exhaustion error. */
  private nextAttempt(kind: ErrorKind, message: string): void {
    const pool = this.pool!;
    const maxAttempts = pool.compiled.maxHops + 1;
    while (this.hops < maxAttempts && performance.now() < this.deadlineMs) {
      const member = pool.cursor.pick(pool.usable, this.tried);
      if (member < 0) break;
      if (member < 31) this.tried |= 1 << member;
      const lane = pool.members[member]!;
      // Taking the permit can still lose a race with another worker: then try the next member.
      if (!this.gauges.tryAcquire(lane.compiled)) continue;
      this.permitHeld = true;
      this.hops++;
      this.attemptLaneWithPermit(lane);
      return;
    }
    if (this.hops === 0) {
      respondError(this.client, this.codec, 'exhausted', `every member of pool "${pool.compiled.name}" is unavailable`, 2);
    } else if (this.lastErrorStatus !== 0) {
      this.relayUpstreamError();
    } else {
      respondError(this.client, this.codec, kind, message);
    }
  }

  private attemptLane(lane: LaneRuntime): void {
    if (!this.gauges.tryAcquire(lane.compiled)) {
      respondError(this.client, this.codec, 'exhausted', `lane "${lane.compiled.name}" is at capacity`, 2);
      return;
    }
    this.permitHeld = true;
    this.hops++;
    this.attemptLaneWithPermit(lane);
  }

  private attemptLaneWithPermit(lane: LaneRuntime): void {
    this.lane = lane;
    this.resetAttempt();
    const provider = lane.provider;
    const upstreamCodec = provider.codec;
    const upstreamModel = lane.compiled.upstreamModel;
    let path: string;
    let bodyText: string;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const staticHeaders = provider.compiled.headers;
    for (const name in staticHeaders) headers[name] = staticHeaders[name]!;
    try {
      if (upstreamCodec === this.codec) {
        path = provider.compiled.basePath + upstreamCodec.upstreamPath(upstreamModel, this.stream);
        bodyText = upstreamCodec.passthroughBody(this.raw, this.body, upstreamModel, this.stream);
      } else {
        if (this.decoded === null) this.decoded = this.codec.decodeRequest(this.body, this.routeInfo);
        const encoded = upstreamCodec.encodeRequest(this.decoded, upstreamModel);
        path = provider.compiled.basePath + encoded.path;
        bodyText = encoded.body;
        if (encoded.headers !== undefined) for (const name in encoded.headers) headers[name] = encoded.headers[name]!;
        this.metering.translated(this.codec.name, upstreamCodec.name);
      }
    } catch (err) {
      this.releasePermit(true);
      if (err instanceof TranslationRefused) this.metering.refused(this.codec.name, upstreamCodec.name, err.reason);
      if (err instanceof GatewayError) respondError(this.client, this.codec, err.kind, err.message, err.retryAfterSecs);
      else respondError(this.client, this.codec, 'invalid_request', 'the request could not be translated');
      return;
    }
    const outgoing: OutgoingRequest = { method: 'POST', origin: provider.compiled.origin, path, headers, body: bodyText };
    if (this.runtime.config.auth.upstreamCredentials === 'passthrough') {
      // The caller's own credential goes upstream instead of the provider's.
      const req = this.req;
      const forwarded = passthroughCredential({ authorization: req.authorization, 'x-api-key': req.xApiKey, 'x-goog-api-key': req.xGoogApiKey });
      for (const name in forwarded) headers[name] = forwarded[name]!;
      this.dispatch(outgoing);
      return;
    }
    const signed = provider.auth.apply(outgoing);
    if (signed === true) this.dispatch(outgoing);
    else if (signed === false) this.credentialMissing();
    else
      signed.then(
        (ok) => (ok ? this.dispatch(outgoing) : this.credentialMissing()),
        () => this.credentialMissing(),
      );
  }

  private credentialMissing(): void {
    this.releasePermit(false);
    respondError(this.client, this.codec, 'unauthorized', `no upstream credential is available for provider "${this.lane!.provider.compiled.name}"`);
  }

  private dispatch(outgoing: OutgoingRequest): void {
    if (this.client.aborted) {
      this.releasePermit(true);
      return;
    }
    const remainingMs = Math.max(1, Math.floor(this.deadlineMs - performance.now()));
    const timeoutMs = Math.min(this.runtime.config.upstream.requestTimeoutMs, remainingMs);
    this.lane!.provider.dispatcher.dispatch(
      {
        origin: outgoing.origin,
        path: outgoing.path,
        method: 'POST',
        headers: outgoing.headers,
        body: outgoing.body,
        headersTimeout: timeoutMs,
        bodyTimeout: this.runtime.config.upstream.requestTimeoutMs,
      },
      this,
    );
  }

  private resetAttempt(): void {
    this.controller = null;
    this.relay = Relay.None;
    this.status = 0;
    this.contentType = '';
    this.retryAfter = '';
    this.chunks = [];
    this.bufferedBytes = 0;
    this.passthrough = null;
    this.decoder = null;
    this.encoder = null;
    this.usage = null;
    this.truncated = false;
    this.errorHeaders = null;
  }

  // ---- undici handler ----

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.client.aborted) controller.abort(new Error('client went away'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    const ct = headers['content-type'];
    this.contentType = typeof ct === 'string' ? ct : '';
    const ra = headers['retry-after'];
    this.retryAfter = typeof ra === 'string' ? ra : '';
    if (statusCode < 200 || statusCode >= 300) {
      this.relay = Relay.ErrorBody;
      this.errorHeaders = headers;
      return;
    }
    const same = this.lane!.provider.codec === this.codec;
    if (this.stream) {
      if (same) {
        this.relay = Relay.PassStream;
        this.passthrough = this.codec.createPassthroughStream(this.body);
        this.client.startStream(statusCode, { 'content-type': this.contentType || this.codec.streamContentType });
      } else {
        this.relay = Relay.TranslateStream;
        this.decoder = this.lane!.provider.codec.createStreamDecoder();
        this.encoder = this.codec.createStreamEncoder();
        this.client.startStream(200, { 'content-type': this.codec.streamContentType });
      }
    } else {
      this.relay = same ? Relay.PassBody : Relay.TranslateBody;
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    switch (this.relay) {
      case Relay.PassStream: {
        const out = this.passthrough!.push(chunk);
        if (out.length > 0) this.writeOrPause(controller, out);
        return;
      }
      case Relay.TranslateStream:
        try {
          this.writeEvents(controller, this.decoder!.push(chunk));
        } catch (err) {
          this.failTranslatedStream(controller, err);
        }
        return;
      case Relay.PassOversize:
        this.writeOrPause(controller, chunk);
        return;
      case Relay.PassBody:
      case Relay.TranslateBody:
        this.chunks.push(chunk);
        this.bufferedBytes += chunk.length;
        if (this.bufferedBytes > this.runtime.config.limits.translateBodyCapBytes) this.overCap(controller);
        return;
      case Relay.ErrorBody:
        if (this.bufferedBytes < ERROR_BODY_CAP_BYTES) {
          this.chunks.push(chunk);
          this.bufferedBytes += chunk.length;
        }
        return;
      default:
        return;
    }
  }

  onResponseEnd(): void {
    switch (this.relay) {
      case Relay.PassStream: {
        this.client.end(this.passthrough!.end());
        this.usage = this.passthrough!.usage();
        break;
      }
      case Relay.TranslateStream:
        try {
          this.writeEvents(null, this.decoder!.finish());
        } catch (err) {
          this.failTranslatedStream(null, err);
          return;
        }
        break;
      case Relay.PassOversize:
        this.client.end();
        this.truncated = true;
        break;
      case Relay.PassBody:
        this.finishPassBody();
        break;
      case Relay.TranslateBody:
        this.finishTranslateBody();
        break;
      case Relay.ErrorBody:
        this.finishErrorBody();
        return;
      default:
        break;
    }
    this.complete(true);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.client.aborted) {
      this.releasePermit(false);
      return;
    }
    const timedOut = (err as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (err as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
    const kind: ErrorKind = timedOut ? 'upstream_timeout' : 'upstream_error';
    const message = timedOut ? 'the upstream provider timed out' : 'the upstream provider connection failed';
    if (!this.client.started) {
      this.releasePermit(true);
      if (this.pool !== null) this.nextAttempt(kind, message);
      else respondError(this.client, this.codec, kind, message);
      return;
    }
    // After the first byte there is no failover: end the stream with the protocol's error event.
    const encoder = this.encoder ?? this.codec.createStreamEncoder();
    endStreamWithError(this.client, encoder, kind, message);
    this.releasePermit(true);
  }

  // ---- relay helpers ----

  /** The upstream stream broke mid-way (an error event, a bad frame, an early end). */
  private failTranslatedStream(controller: Dispatcher.DispatchController | null, err: unknown): void {
    this.relay = Relay.None;
    const message = err instanceof GatewayError ? err.message : 'the upstream stream could not be read';
    endStreamWithError(this.client, this.encoder!, 'upstream_error', message);
    if (controller !== null && !controller.aborted) controller.abort(new Error(message));
    this.releasePermit(true);
  }

  private writeOrPause(controller: Dispatcher.DispatchController, out: PassthroughBytes): void {
    if (!this.client.write(out) && !this.client.aborted) {
      controller.pause();
      this.client.onDrain((this.resumeUpstream ??= () => this.controller?.resume()));
    }
  }

  /**
   * Encodes the events one upstream chunk completed and writes them as ONE write (every write
   * is a send): text framings concatenate; a binary framing (Bedrock) gathers its frames.
   * With `controller` null the stream ends with these bytes.
   */
  private writeEvents(controller: Dispatcher.DispatchController | null, events: ReturnType<StreamDecoder['push']>): void {
    const encoder = this.encoder!;
    let text = '';
    let binary: Uint8Array[] | null = null;
    for (const event of events) {
      if (event.type === 'usage') {
        this.usage = event.usage;
        if (!this.wantStreamUsage) continue;
      } else if (event.type === 'start' && event.model === '') {
        event.model = this.lane!.compiled.upstreamModel; // protocols that do not echo the model
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
    const bytes: string | Uint8Array = binary === null ? text : binary.length === 1 ? binary[0]! : Buffer.concat(binary);
    if (controller === null) this.client.end(bytes);
    else if (bytes.length > 0) this.writeOrPause(controller, bytes);
  }

  /** A same-protocol body over the cap streams through unparsed; a translated one cannot. */
  private overCap(controller: Dispatcher.DispatchController): void {
    if (this.relay === Relay.TranslateBody) {
      this.relay = Relay.None;
      // Answer first: the abort reaches onResponseError, which must find the caller answered.
      respondError(this.client, this.codec, 'upstream_error', `the upstream response is larger than the translation limit (advanced.translate_body_cap_bytes = ${this.runtime.config.limits.translateBodyCapBytes}) and cannot be translated`);
      controller.abort(new Error('response over the translate cap'));
      this.chunks = [];
      return;
    }
    this.relay = Relay.PassOversize;
    this.client.startStream(this.status, { 'content-type': this.contentType || 'application/json' });
    for (const c of this.chunks) this.client.write(c);
    this.chunks = [];
  }

  private bufferedBody(): Buffer {
    const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.bufferedBytes);
    this.chunks = [];
    return whole;
  }

  private bufferedText(): string {
    return this.bufferedBody().toString('utf8');
  }

  private finishPassBody(): void {
    // The caller gets the upstream's bytes as they came; only the usage field is read.
    const body = this.bufferedBody();
    this.client.respond(this.status, { 'content-type': this.contentType || 'application/json' }, body);
    this.usage = passthroughUsage(this.codec, body.toString('utf8'));
  }

  private finishTranslateBody(): void {
    const upstreamCodec = this.lane!.provider.codec;
    let out: string;
    try {
      const resp = upstreamCodec.decodeResponse(JSON.parse(this.bufferedText()));
      if (resp.model === '') resp.model = this.lane!.compiled.upstreamModel; // protocols that do not echo the model
      this.usage = resp.usage;
      out = this.codec.encodeResponse(resp);
    } catch {
      respondError(this.client, this.codec, 'upstream_error', 'the upstream response could not be read');
      return;
    }
    this.client.respond(200, { 'content-type': 'application/json' }, out);
  }

  private finishErrorBody(): void {
    this.lastErrorStatus = this.status;
    this.lastErrorText = this.bufferedText();
    this.lastErrorContentType = this.contentType;
    this.lastErrorRetryAfter = this.retryAfter;
    this.lastErrorHeaders = this.errorHeaders;
    const retryable = retryableStatus(this.status);
    this.releasePermit(retryable);
    if (retryable && this.pool !== null) {
      this.nextAttempt(kindForUpstreamStatus(this.status), `upstream answered ${this.status}`);
      return;
    }
    this.relayUpstreamError();
  }

  /** The last upstream error, as is when the caller speaks the lane's protocol, else translated. */
  private relayUpstreamError(): void {
    const status = this.lastErrorStatus;
    const upstreamCodec = this.lane!.provider.codec;
    if (upstreamCodec === this.codec) {
      // Same protocol: the vendor's own error, body and headers, is already in the caller's shape.
      this.client.respond(status, relayableHeaders(this.lastErrorHeaders, this.lastErrorContentType), this.lastErrorText);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.lastErrorText);
    } catch {
      parsed = undefined;
    }
    const retryAfterSecs = this.lastErrorRetryAfter !== '' ? Number(this.lastErrorRetryAfter) || undefined : undefined;
    respondError(this.client, this.codec, kindForUpstreamStatus(status), upstreamCodec.upstreamErrorMessage(status, parsed), retryAfterSecs);
  }

  private complete(ok: boolean): void {
    const lane = this.lane!;
    this.releasePermit(!ok);
    this.metering.record(this.pool?.compiled.name ?? '', lane, this.usage, this.truncated);
  }

  private releasePermit(failed: boolean): void {
    if (!this.permitHeld) return;
    this.permitHeld = false;
    this.gauges.release(this.lane!.compiled, !failed);
  }
}
