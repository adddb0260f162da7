// Admin authentication: the ordered `auth.admin_auth` chain. `admin-tokens` compares the
// presented token (`x-admin-token`, or `Authorization: Bearer`) in constant time with the
// operator token; the first module that accepts names the principal. An empty chain is the
// open dev posture: every caller is `anonymous` with full authority (warned at boot).
// Identity-provider modules join the chain with the identity work; until then they accept
// nobody, and their principals' scope will come from role_bindings.
import type { IncomingHttpHeaders } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AdminError, type AdminPrincipal, type AdminScope } from './route.js';

export const ANONYMOUS: AdminPrincipal = { id: 'anonymous', scope: 'full' };
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

/** 403 when the principal's scope does not reach what the route needs. */
export function authorize(principal: AdminPrincipal, needed: AdminScope): void {
  if (needed === 'full' && principal.scope !== 'full') {
    throw new AdminError(403, 'forbidden', `this needs the full admin scope; principal "${principal.id}" has ${principal.scope}`);
  }
}
