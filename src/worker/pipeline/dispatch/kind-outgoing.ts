// The upstream request of a kind beside chat (a count, embeddings): the path and body its codec
// planned, under the provider's base path, with the provider's static headers and, for a lane of
// the caller's own protocol, the headers the caller's body was written for (an API version,
// betas) -- as a chat request's (dispatch/outgoing.ts).
import type { EncodedUpstreamRequest } from '../../../shared/protocols/codec.js';
import type { LaneRuntime } from '../../runtime.js';
import type { OutgoingRequest } from '../../upstream/auth/upstream-auth.js';
import type { RequestContext } from '../context.js';

export function kindOutgoing(ctx: RequestContext, lane: LaneRuntime, encoded: EncodedUpstreamRequest): OutgoingRequest {
  const provider = lane.provider;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const staticHeaders = provider.compiled.headers;
  for (const name in staticHeaders) headers[name] = staticHeaders[name]!;
  if (provider.codec === ctx.codec) {
    const names = provider.codec.callerHeaders;
    if (names !== undefined) {
      const sent = ctx.req.callerHeaders;
      for (const name of names) if (sent[name] !== undefined) headers[name] = sent[name];
    }
  }
  if (encoded.headers !== undefined) for (const name in encoded.headers) headers[name] = encoded.headers[name]!;
  return { method: 'POST', origin: provider.compiled.origin, path: provider.compiled.basePath + encoded.path, headers, body: encoded.body };
}
