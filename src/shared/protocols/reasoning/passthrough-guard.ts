// Same-protocol traffic passes the caller's bytes upstream untouched. A conversation that went
// through a lane of another protocol earlier holds reasoning state the gateway wrote for that
// lane's family (tokens in signatures, tool-call ids, encrypted_content...), which this lane
// would refuse (an Anthropic signature it did not make, a tool-call id longer than OpenAI's 40
// characters). Such a body must not pass through: the pipeline translates it instead, from the
// caller's codec to the same codec, which keeps the lane's own state and drops the rest.
import type { Buffer } from 'node:buffer';
import { TOKEN_PREFIX } from './state-token.js';

/**
 * Whether a request body holds state the gateway wrote (a token), so that it must be translated
 * rather than passed through. One substring search over the raw body (memchr-fast), made only
 * for same-protocol requests.
 */
export function holdsGatewayState(rawBody: string | Buffer): boolean {
  return rawBody.indexOf(TOKEN_PREFIX) !== -1;
}
