// Guarded undici dispatchers for outbound calls that have no pool of their own (webhook hooks,
// the webhook request-log sink, IdP discovery, JWKS and token calls): one Agent per thread,
// built with the egress guard's connector, so no call reaches a metadata host by any route.
import { Agent } from 'undici';
import { guardedConnector } from './connector.js';

let shared: Agent | null = null;

/** The thread's guarded Agent for one-off outbound calls. */
export function egressAgent(): Agent {
  shared ??= new Agent({ connect: guardedConnector() });
  return shared;
}

/** A guarded Agent with its own connect options (a private CA, a connect timeout). */
export function guardedAgent(options: Agent.Options & { connect?: Record<string, unknown> } = {}): Agent {
  const { connect, ...rest } = options;
  return new Agent({ ...rest, connect: guardedConnector((connect ?? {}) as never) });
}
