// What main and workers both derive from the identity-provider config: the per-identity key
// id (an HMAC under the key derived from auth.signing_key, so it is stable across restarts
// and nodes and cannot be guessed without the signing key), and what role_bindings grant.
import { createHmac } from 'node:crypto';

const KEY_ID_LABEL = 'gateway identity key v1\u0000';

export type AdminScopeGrant = 'none' | 'read-only' | 'full';

/** identity-providers.<name> as workers and main use it. */
export interface CompiledIdentityProvider {
  name: string;
  issuer: string;
  audience: string;
  roleClaim: string;
  jwksUrl: string | null;
  caCertPem: string | null;
  clockSkewSec: number;
  maxAdminScope: AdminScopeGrant;
  /** Hosted sign-in page: null when the provider has no browser_login block. */
  browserClientId: string | null;
  /** Scopes the sign-in asks for (`browser_login.scope`, default `openid`). */
  browserScope: string;
}

/** role_bindings.<provider>.<group>. */
interface CompiledBinding {
  group: string | null;
  adminScope: 'read-only' | 'full' | null;
}

export type CompiledBindings = Record<string, Record<string, CompiledBinding>>;

/** The deterministic key id of `sub` signed in at `provider`. */
export function identityKeyId(derivationKey: Buffer, provider: string, sub: string): string {
  const mac = createHmac('sha256', derivationKey).update(KEY_ID_LABEL).update(provider).update('\u0000').update(sub).digest();
  return `key_idp_${mac.subarray(0, 18).toString('base64url')}`;
}

/** The team of the first claim group (in the token's order) bound to a `group`; null = none. */
export function boundTeam(bindings: CompiledBindings, provider: string, groups: readonly string[]): string | null {
  const byGroup = bindings[provider];
  if (byGroup === undefined) return null;
  for (const g of groups) {
    const team = byGroup[g]?.group;
    if (team != null) return team;
  }
  return null;
}

/** The highest bound admin scope, capped by the provider's max_admin_scope. */
export function boundAdminScope(bindings: CompiledBindings, provider: CompiledIdentityProvider, groups: readonly string[]): AdminScopeGrant {
  if (provider.maxAdminScope === 'none') return 'none';
  const byGroup = bindings[provider.name] ?? {};
  let scope: AdminScopeGrant = 'none';
  for (const g of groups) {
    const s = byGroup[g]?.adminScope;
    if (s === 'full') scope = 'full';
    else if (s === 'read-only' && scope === 'none') scope = 'read-only';
  }
  if (scope === 'full' && provider.maxAdminScope === 'read-only') return 'read-only';
  return scope;
}
