// A gate's refusal, written to the caller in its own protocol's error shape with the gate's own
// status (the error type is the nearest of the gateway's kinds, so each SDK raises its usual
// exception for that status).
import type { ErrorKind } from '../../shared/errors.js';
import type { Codec } from '../../shared/protocols/codec.js';
import type { ClientResponse } from '../pipeline/client.js';

function kindOf(status: number): ErrorKind {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'model_not_found';
    case 413:
      return 'body_too_large';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'exhausted' : 'invalid_request';
  }
}

export function respondGateRefusal(client: ClientResponse, codec: Codec, status: number, message: string): void {
  if (client.aborted) return;
  const e = codec.encodeError(kindOf(status), message);
  client.respond(status, e.headers, e.body);
}
