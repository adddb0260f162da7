// identity-providers and role_bindings, compiled for workers and main (plain data).
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { parseDurationMs } from '../../shared/config/duration.js';
import type { CompiledBindings, CompiledIdentityProvider } from '../../shared/identity/identity.js';
import { DEFAULT_CLOCK_SKEW_SEC } from '../../shared/identity/oidc-verifier.js';

export function compileIdentity(config: DeploymentConfig): { providers: CompiledIdentityProvider[]; bindings: CompiledBindings } {
  const providers: CompiledIdentityProvider[] = [];
  for (const [name, p] of Object.entries(config['identity-providers'] ?? {})) {
    const s = p.settings;
    const skew = typeof s.clock_skew === 'string' ? parseDurationMs(s.clock_skew) : undefined;
    providers.push({
      name,
      issuer: s.issuer,
      audience: s.audience,
      roleClaim: s.role_claim ?? 'groups',
      jwksUrl: s.jwks_url ?? null,
      caCertPem: s.ca_cert_pem ?? null,
      clockSkewSec: skew === undefined ? DEFAULT_CLOCK_SKEW_SEC : Math.floor(skew / 1000),
      maxAdminScope: p.max_admin_scope ?? 'read-only',
      browserClientId: p.browser_login === undefined ? null : (p.browser_login.client_id ?? s.audience),
      browserScope: typeof p.browser_login?.scope === 'string' ? p.browser_login.scope : 'openid',
    });
  }
  const bindings: CompiledBindings = {};
  for (const [provider, byGroup] of Object.entries(config.role_bindings ?? {})) {
    bindings[provider] = {};
    for (const [group, b] of Object.entries(byGroup)) bindings[provider][group] = { group: b.group ?? null, adminScope: b.admin_scope ?? null };
  }
  return { providers, bindings };
}
