// The guard's check of a URL ahead of time (config validation, `gateway hook test`): the host
// as written, then every address it resolves to now. It cannot be the last word, since a name
// may answer differently later; the connect-time check in connector.ts is.
import { isIP } from 'node:net';
import { egressRefusal, isAllowed } from './policy.js';
import { resolveEgress } from './resolver.js';

/** Why `url` may not be called, or null. A name that does not resolve is not refused here. */
export async function validateEgressUrl(url: string, extraAllowed: readonly string[] = []): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'not a URL';
  }
  const refusal = egressRefusal(host, extraAllowed);
  if (refusal !== null || isIP(host) !== 0 || isAllowed(host, extraAllowed)) return refusal;
  let answers;
  try {
    answers = await resolveEgress(host);
  } catch {
    return null;
  }
  for (const a of answers) {
    const r = egressRefusal(a.address, extraAllowed);
    if (r !== null) return `${host} resolves to ${r}`;
  }
  return null;
}
