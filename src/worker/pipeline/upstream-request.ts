// The upstream request of one attempt: path, body and headers in the lane's protocol (the
// caller's bytes as they are for a same-protocol lane, translated through the internal model
// otherwise), and the caller's own credential under `upstream_credentials: passthrough`.
import type { Buffer } from 'node:buffer';
import type { ModelRequest } from '../../shared/model/types.js';
import { spliceString } from '../../shared/protocols/framing/passthrough-bytes.js';
import type { StringSpan } from '../../shared/protocols/framing/top-level-members.js';
import type { Codec, RouteInfo } from '../../shared/protocols/codec.js';
import { passthroughCredential, type OutgoingRequest } from '../upstream/auth/upstream-auth.js';
import type { Metering } from '../metering.js';
import type { LaneRuntime } from '../runtime.js';
import type { IngressRequest } from './client.js';

/** What the request carries into every attempt; `decoded` is filled on the first translation. */
export interface RequestBody {
  /** The caller's bytes; null once a gate rewrote the body (raw is then the text sent). */
  readonly bytes: Buffer | null;
  /** The body as text (decoded from `bytes` when first asked for). */
  readonly raw: string;
  /** Where the top-level model's string value sits in `bytes` (start -1: not known, or no such member). */
  readonly modelSpan: StringSpan;
  /** The body as far as a same-protocol request reads it: the codec's requestMembers at least. */
  head: unknown;
  /** The whole body (for a translation). */
  readonly body: unknown;
  routeInfo: RouteInfo;
  stream: boolean;
  decoded: ModelRequest | null;
}

/** Builds the attempt's request; throws (a GatewayError or any error) when it cannot be translated. */
export function buildOutgoing(request: RequestBody, callerCodec: Codec, lane: LaneRuntime, metering: Metering): OutgoingRequest {
  const provider = lane.provider;
  const upstreamCodec = provider.codec;
  const upstreamModel = lane.compiled.upstreamModel;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const staticHeaders = provider.compiled.headers;
  for (const name in staticHeaders) headers[name] = staticHeaders[name]!;
  let path: string;
  let bodyText: string | Uint8Array;
  if (upstreamCodec === callerCodec) {
    path = provider.compiled.basePath + upstreamCodec.upstreamPath(upstreamModel, request.stream);
    bodyText = passthroughBytes(request, upstreamCodec, upstreamModel) ?? upstreamCodec.passthroughBody(request.raw, request.head, upstreamModel, request.stream);
  } else {
    if (request.decoded === null) request.decoded = callerCodec.decodeRequest(request.body, request.routeInfo);
    const encoded = upstreamCodec.encodeRequest(request.decoded, upstreamModel);
    path = provider.compiled.basePath + encoded.path;
    bodyText = encoded.body;
    if (encoded.headers !== undefined) for (const name in encoded.headers) headers[name] = encoded.headers[name]!;
    metering.translated(callerCodec.name, upstreamCodec.name);
  }
  return { method: 'POST', origin: provider.compiled.origin, path, headers, body: bodyText };
}

/** A same-protocol body made over the caller's bytes (the same bytes passthroughBody's text would be); null when only the text form can. */
function passthroughBytes(request: RequestBody, codec: Codec, upstreamModel: string): Uint8Array | null {
  const bytes = request.bytes;
  if (bytes === null || codec.passthroughEdit === undefined) return null;
  const edit = codec.passthroughEdit(request.head, request.stream);
  if (edit === 'none') return bytes;
  if (edit === 'model' && request.modelSpan.start >= 0) return spliceString(bytes, request.modelSpan, upstreamModel);
  return null;
}

/** `upstream_credentials: passthrough`: the caller's own credential goes upstream. */
export function forwardCallerCredential(outgoing: OutgoingRequest, req: IngressRequest): void {
  const forwarded = passthroughCredential({ authorization: req.authorization, 'x-api-key': req.xApiKey, 'x-goog-api-key': req.xGoogApiKey });
  for (const name in forwarded) outgoing.headers[name] = forwarded[name]!;
}

/**
 * A same-protocol Anthropic request keeps the caller's `anthropic-version` and `anthropic-beta`:
 * its body is written for that version and those betas (a translated request is written by us
 * for the provider's configured version, so it keeps the provider's headers).
 */
export function forwardAnthropicHeaders(outgoing: OutgoingRequest, req: IngressRequest, callerCodec: Codec, upstreamCodec: Codec): void {
  if (callerCodec !== upstreamCodec || callerCodec.name !== 'anthropic') return;
  if (req.anthropicVersion !== '') outgoing.headers['anthropic-version'] = req.anthropicVersion;
  if (req.anthropicBeta !== '') outgoing.headers['anthropic-beta'] = req.anthropicBeta;
}
