// The upstream request of one attempt: path, body and headers in the lane's protocol (the
// caller's bytes as they are for a same-protocol lane, translated through the internal model
// otherwise), then signed: the provider's credential, or the caller's own under
// `upstream_credentials: passthrough`.
import { spliceString } from '../../../shared/protocols/framing/passthrough-bytes.js';
import { holdsGatewayState } from '../../../shared/protocols/reasoning/passthrough-guard.js';
import { passthroughCredential, type OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import type { LaneRuntime } from '../../runtime.js';
import type { RequestContext } from '../context.js';

/** Builds the attempt's request; throws (a GatewayError or any error) when it cannot be translated. */
export function buildOutgoing(ctx: RequestContext, lane: LaneRuntime): OutgoingRequest {
  const provider = lane.provider;
  const upstreamCodec = provider.codec;
  const callerCodec = ctx.codec;
  const upstreamModel = lane.compiled.upstreamModel;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const staticHeaders = provider.compiled.headers;
  for (const name in staticHeaders) headers[name] = staticHeaders[name]!;
  let path: string;
  let bodyText: string | Uint8Array;
  // A body holding reasoning state the gateway wrote for another family is translated, codec to
  // itself, so that the lane gets only its own state (protocols/reasoning/passthrough-guard.ts).
  // The decode step's pass over the bytes usually saw already (heldStateToken).
  if (upstreamCodec === callerCodec && !(ctx.heldStateToken ?? holdsGatewayState(ctx.bytes ?? ctx.raw))) {
    path = provider.compiled.basePath + upstreamCodec.upstreamPath(upstreamModel, ctx.stream);
    bodyText = passthroughBytes(ctx, lane, upstreamModel) ?? upstreamCodec.passthroughBody(ctx.raw, ctx.head, upstreamModel, ctx.stream);
    // The headers the caller's body was written for (an API version, betas) go with it.
    const names = upstreamCodec.callerHeaders;
    if (names !== undefined) {
      const sent = ctx.req.callerHeaders;
      for (const name of names) if (sent[name] !== undefined) headers[name] = sent[name];
    }
  } else {
    if (ctx.decoded === null) ctx.decoded = callerCodec.decodeRequest(ctx.body, ctx.routeInfo);
    const encoded = upstreamCodec.encodeRequest(ctx.decoded, upstreamModel);
    path = provider.compiled.basePath + encoded.path;
    bodyText = encoded.body;
    if (encoded.headers !== undefined) for (const name in encoded.headers) headers[name] = encoded.headers[name]!;
    if (callerCodec !== upstreamCodec) ctx.deps.metering.translated(callerCodec.name, upstreamCodec.name);
  }
  return { method: 'POST', origin: provider.compiled.origin, path, headers, body: bodyText };
}

/** A same-protocol body made over the caller's bytes (the same bytes passthroughBody's text would be); null when only the text form can. */
function passthroughBytes(ctx: RequestContext, lane: LaneRuntime, upstreamModel: string): Uint8Array | null {
  const bytes = ctx.bytes;
  const fastPath = lane.provider.fastPath;
  if (bytes === null || fastPath?.passthroughEdit === undefined) return null;
  const edit = fastPath.passthroughEdit(ctx.head, ctx.stream);
  if (edit === 'none') return bytes;
  if (edit === 'model' && ctx.modelSpan.start >= 0) return spliceString(bytes, ctx.modelSpan, upstreamModel);
  return null;
}

/**
 * Signs the request: true when done, false when the provider has no credential yet (a token
 * mode still minting, a missing key), a promise while a credential is fetched.
 */
export function signOutgoing(ctx: RequestContext, lane: LaneRuntime, outgoing: OutgoingRequest): boolean | Promise<boolean> {
  if (ctx.runtime.config.auth.upstreamCredentials === 'passthrough') {
    const req = ctx.req;
    const forwarded = passthroughCredential({ authorization: req.authorization, 'x-api-key': req.xApiKey, 'x-goog-api-key': req.xGoogApiKey });
    for (const name in forwarded) outgoing.headers[name] = forwarded[name]!;
    return true;
  }
  return lane.provider.auth.apply(outgoing);
}
