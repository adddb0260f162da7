// Admin authentication: the ordered `auth.admin_auth` chain. `admin-tokens` compares the
// presented token (`x-admin-token`, or `Authorization: Bearer`) in constant time with the
// operator token; the first module that accepts names the principal. An empty chain is the
// open dev posture: every caller is `anonymous` with full authority (warned at boot).
// An identity-provider name in the chain verifies the presented bearer as that IdP's token;
// its principal (`idp:<provider>:user:<sub>`) gets the highest admin_scope its groups are
// bound to in role_bindings, capped by the provider's max_admin_scope (`none`: never).
import type { IncomingHttpHeaders } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AdminError, type AdminPrincipal, type AdminScope } from './route.js';
import { idpAdminPrincipal, type IdentityService } from '../identity/service.js';

const ANONYMOUS: AdminPrincipal = { id: 'anonymous', scope: 'full' };
const OPERATOR: AdminPrincipal = { id: 'admin', scope: 'full' };

export function presentedToken(headers: IncomingHttpHeaders): string | null {
  const header = headers['x-admin-token'];
  if (typeof header === 'string' && header !== '') return header;
  const auth = headers.authorization;
  if (typeof auth === 'string' && /^bearer /i.test(auth)) return auth.slice(7).trim() || null;
  return null;
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function tokenMatches(expected: string, presented: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(presented).digest();
  return timingSafeEqual(a, b);
}

export function authenticate(headers: IncomingHttpHeaders, chain: readonly string[], operatorToken: string | undefined): AdminPrincipal {
  if (chain.length === 0) return ANONYMOUS;
  const token = presentedToken(headers);
  if (token === null) throw new AdminError(401, 'unauthorized', 'missing admin credential: send x-admin-token or Authorization: Bearer');
  for (const module of chain) {
    if (module === 'admin-tokens' && operatorToken !== undefined && tokenMatches(operatorToken, token)) return OPERATOR;
  }
  throw new AdminError(401, 'unauthorized', 'invalid admin credential');
}

/** The chain with identity-provider entries (asynchronous: an IdP token may need the JWKS). */
export async function authenticateAdmin(
  headers: IncomingHttpHeaders,
  chain: readonly string[],
  operatorToken: string | undefined,
  identity: IdentityService | null = null,
): Promise<AdminPrincipal> {
  if (chain.length === 0) return ANONYMOUS;
  const token = presentedToken(headers);
  if (token === null) throw new AdminError(401, 'unauthorized', 'missing admin credential: send x-admin-token or Authorization: Bearer');
  const refusals: string[] = [];
  for (const module of chain) {
    if (module === 'admin-tokens') {
      if (operatorToken !== undefined && tokenMatches(operatorToken, token)) return OPERATOR;
      continue;
    }
    // An operator token is no IdP token: do not send it to an IdP verifier.
    if (identity === null || !token.includes('.')) continue;
    const outcome = await idpAdminPrincipal(identity, module, token);
    if (outcome === null) continue;
    if ('refused' in outcome) refusals.push(outcome.refused);
    else return outcome;
  }
  throw new AdminError(401, 'unauthorized', refusals.length === 0 ? 'invalid admin credential' : `invalid admin credential (${refusals.join('; ')})`);
}

/** 403 when the principal's scope does not reach what the route needs. */
export function authorize(principal: AdminPrincipal, needed: AdminScope): void {
  if (needed === 'full' && principal.scope !== 'full') {
    throw new AdminError(403, 'forbidden', `this needs the full admin scope; principal "${principal.id}" has ${principal.scope}`);
  }
}
