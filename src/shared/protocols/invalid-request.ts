// The error every decoder throws for a caller's body it cannot read: a 400 whose message names
// the member at fault (the protocol's own error shape is made from it by errors.ts's table).
import { GatewayError } from '../errors.js';

export function invalidRequest(message: string): GatewayError {
  return new GatewayError('invalid_request', message);
}
