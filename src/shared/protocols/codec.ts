// The contract each of the six wire protocols implements (one folder per protocol).
// Envoy AI Gateway's four steps, split by direction: ingress decodes the caller's request and
// encodes our answer in the caller's protocol; upstream encodes the request in the lane's
// protocol and decodes its answer. Same-protocol traffic skips the model (passthrough) and only
// sniffs usage. A codec's fast path (what lets it skip work with the same bytes) is an add-on
// this contract does not name: fast-path/codec-fast-path.ts.
import type { ModelRequest, ModelResponse, ProtocolName, StreamEvent, Usage } from '../model/types.js';
import type { ErrorKind } from '../errors.js';
import type { TextDeltaTemplate } from './fast-path/text-run.js';

/** What the ingress route knows before the body is decoded. */
export interface RouteInfo {
  /** Model named in the path (gemini `{model}`, bedrock `{modelId}`), else undefined. */
  pathModel?: string;
  /** Streaming implied by the path (gemini streamGenerateContent, bedrock converse-stream), else undefined. */
  pathStream?: boolean;
}

export interface EncodedUpstreamRequest {
  /** Path and query appended to the provider's base URL, e.g. `/chat/completions`. */
  path: string;
  body: string;
  /** Extra headers the protocol needs (content-type is always set by the caller). */
  headers?: Record<string, string>;
}

export interface EncodedError {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Turns upstream stream bytes into internal events, chunk by chunk (never buffers the whole). */
export interface StreamDecoder {
  /** Feed bytes as they arrive; returns the events completed by them (may be empty). */
  push(chunk: Uint8Array): StreamEvent[];
  /** Upstream ended; returns any events still pending (e.g. a synthesized `end`). */
  finish(): StreamEvent[];
  /**
   * The encoder writes `text_run` events (it has textDeltaTemplate): emit one where text
   * deltas come back to back in a chunk. A decoder without a run reader emits deltas only.
   */
  emitTextRuns?(): void;
}

/** Turns internal events into the caller's stream framing. */
export interface StreamEncoder {
  /** Bytes to write for this event ('' when nothing is written for it). */
  encode(event: StreamEvent): string | Uint8Array;
  /** The protocol's own mid-stream error event, written after the first byte when upstream fails. */
  error(kind: ErrorKind, message: string): string | Uint8Array;
  /**
   * Present on an encoder that writes `text_run` events from a template (fast-path/text-run.ts):
   * its bytes for a text delta of block `index` are then the same before and after every literal.
   */
  readonly textDeltaTemplate?: (index: number) => TextDeltaTemplate | null;
}

/**
 * A same-protocol stream on its way back to the caller: watches the bytes for usage without
 * re-encoding them, and drops only what the caller did not ask for (openai's extra usage chunk
 * when the caller did not set `stream_options.include_usage`).
 */
/** Bytes to write: one buffer or text, or several parts written together in one send. */
export type PassthroughBytes = Uint8Array | string | readonly Uint8Array[];

export interface PassthroughStream {
  /**
   * Bytes to write for this chunk: the same `chunk` object when unchanged, '' when nothing, or
   * parts (views of the chunk) when something was cut out of it, so the stream is not copied.
   */
  push(chunk: Uint8Array): PassthroughBytes;
  /** Upstream ended: any bytes still held back ('' when none). */
  end(): Uint8Array | string;
  /** Usage seen so far (the last complete report), or null when none arrived. */
  usage(): Usage | null;
}

export interface Codec {
  readonly name: ProtocolName;
  /** Content type of a streaming response in this protocol. */
  readonly streamContentType: string;

  // --- ingress side (the caller speaks this protocol) ---
  /**
   * What the route's model path segment (gemini `{model}:{action}`, bedrock `{modelId}`) says;
   * undefined when it names an action the protocol has no route for (404). Absent: the
   * segment is the URL-encoded model and the route says whether it streams.
   */
  routeInfoOf?(segment: string): RouteInfo | undefined;
  /** The caller may send any content type, not only JSON (its clients send a form type for a JSON body). */
  readonly acceptsAnyContentType?: boolean;
  /**
   * Request headers (lower case) a same-protocol upstream gets as the caller sent them, because
   * the caller's body was written for them (an API version, betas). The ingress copies these.
   */
  readonly callerHeaders?: readonly string[];
  /** Parsed JSON body -> model. Throws GatewayError('invalid_request', ...) on a shape it cannot read. */
  decodeRequest(body: unknown, route: RouteInfo): ModelRequest;
  /** The model named by the request without a full decode (body field or path). */
  requestedModel(body: unknown, route: RouteInfo): string | undefined;
  /** Whether the request asks for a stream (body flag or path; ollama streams by default). */
  requestedStream(body: unknown, route: RouteInfo): boolean;
  /** Model response -> JSON body text in this protocol. */
  encodeResponse(resp: ModelResponse): string;
  createStreamEncoder(): StreamEncoder;
  /** A gateway-made error in this protocol's own shape and status. */
  encodeError(kind: ErrorKind, message: string, retryAfterSecs?: number): EncodedError;

  // --- upstream side (the lane speaks this protocol) ---
  /** Model -> upstream request. `upstreamModel` replaces `req.model`. */
  encodeRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest;
  /** Upstream path for a passthrough request in this protocol. */
  upstreamPath(upstreamModel: string, stream: boolean): string;
  /** Parsed upstream JSON body -> model. */
  decodeResponse(body: unknown): ModelResponse;
  /** `memo`: the lane's, where the decoder may keep what it learns of its upstream's events. */
  createStreamDecoder(memo?: LaneMemo): StreamDecoder;
  /** Upstream error body (parsed JSON, or undefined) -> a readable message. */
  upstreamErrorMessage(status: number, body: unknown): string;

  /**
   * Whether the caller asked to see usage in its stream (openai: `stream_options.include_usage`;
   * every other protocol always carries it). When false the stream encoder never gets `usage`.
   */
  streamUsageRequested(body: unknown): boolean;

  // --- passthrough (same protocol in and out) ---
  /**
   * The upstream body for a same-protocol request: the caller's bytes with only the model
   * rewritten in place (every other byte kept, unknown fields included), plus what metering
   * needs (openai stream: `stream_options.include_usage: true`). Protocols whose model lives in
   * the path return `raw` unchanged. `body`: what `raw` was parsed into, or at least its
   * fast path's requestMembers (the model member is found by it, without a scan of the text).
   */
  passthroughBody(raw: string, body: unknown, upstreamModel: string, stream: boolean): string;
  usageFromResponse(body: unknown): Usage | null;
  /** `memo`: the lane's, where a stream may keep what it learns of its upstream's events. */
  createPassthroughStream(body: unknown, memo?: LaneMemo): PassthroughStream;
}

/**
 * What a lane keeps between its requests about how its upstream writes, for the lane's own
 * codec: opaque to the contract (a codec's fast path reads it: fast-path/codec-fast-path.ts).
 */
export type LaneMemo = object;
