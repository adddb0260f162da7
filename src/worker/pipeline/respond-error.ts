// Writing a gateway-made error to the caller in the ingress protocol's own shape, before the
// first byte (a status + body) or after it (the protocol's mid-stream error event).
import { GatewayError, type ErrorKind } from '../../shared/errors.js';
import type { Codec, StreamEncoder } from '../../shared/protocols/codec.js';
import type { ClientResponse } from './client.js';

export function respondError(client: ClientResponse, codec: Codec, kind: ErrorKind, message: string, retryAfterSecs?: number): void {
  if (client.aborted) return;
  const e = codec.encodeError(kind, message, retryAfterSecs);
  client.respond(e.status, e.headers, e.body);
}

export function respondGatewayError(client: ClientResponse, codec: Codec, err: GatewayError): void {
  respondError(client, codec, err.kind, err.message, err.retryAfterSecs);
}

/** Ends a stream that already started with the protocol's error event. */
export function endStreamWithError(client: ClientResponse, encoder: StreamEncoder, kind: ErrorKind, message: string): void {
  if (client.aborted) return;
  client.end(encoder.error(kind, message));
}

/** The gateway's error kind for an upstream HTTP status it relays across protocols. */
export function kindForUpstreamStatus(status: number): ErrorKind {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'model_not_found';
  if (status === 413) return 'body_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 504 || status === 408) return 'upstream_timeout';
  return 'upstream_error';
}
