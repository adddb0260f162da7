// An identity provider in auth.chain: the caller's IdP token is verified on every request
// (a verification is cached until the token's own expiry), its group comes from
// role_bindings, and no key is issued to the caller. Admission still needs a record to meter
// and limit: the identity's deterministic key (the same one POST /auth/token would hand out)
// is provisioned by main on the identity's first request and looked up by id afterwards.
import { Buffer } from 'node:buffer';
import type { CompiledConfig } from '../../shared/config/compiled.js';
import { boundTeam, identityKeyId, type CompiledIdentityProvider } from '../../shared/identity/identity.js';
import type { KeyTable } from '../governance/key-table.js';
import { Refusal } from '../governance/refusal.js';
import type { AuthResult } from './authenticate.js';
import type { IdentityClient } from './identity-client.js';
import { OidcFailure, OidcVerifier, type VerifiedIdentity } from '../../shared/identity/oidc-verifier.js';

const NO_DERIVATION = new Refusal('unauthorized', 'identity-provider callers need auth.signing_key on the gateway');

/** A verification with the identity's key id, worked out once per token. */
interface ChainIdentity extends VerifiedIdentity {
  keyId?: string;
  team?: string | null;
}

export class OidcChain {
  private readonly verifiers = new Map<string, { provider: CompiledIdentityProvider; verifier: OidcVerifier }>();
  private derivationHex: string | null = null;
  private derivationKey: Buffer | null = null;
  private bindingsJson = '{}';

  constructor(
    private readonly table: KeyTable,
    private readonly client: IdentityClient,
  ) {}

  /** With each applied config: verifiers for changed providers are made again. */
  configure(config: CompiledConfig): void {
    const names = new Set<string>();
    for (const p of config.identity.providers) {
      names.add(p.name);
      const had = this.verifiers.get(p.name);
      if (had !== undefined && JSON.stringify(had.provider) === JSON.stringify(p)) continue;
      const verifier = new OidcVerifier(
        {
          issuer: p.issuer,
          audience: p.audience,
          role_claim: p.roleClaim,
          jwks_url: p.jwksUrl ?? undefined,
          ca_cert_pem: p.caCertPem ?? undefined,
          clockSkewSec: p.clockSkewSec,
        },
        config.governance.keyCacheEntries,
      );
      this.verifiers.set(p.name, { provider: p, verifier });
    }
    for (const name of this.verifiers.keys()) if (!names.has(name)) this.verifiers.delete(name);
    // Cached verifications carry the team their groups mapped to: new bindings, new mapping.
    const bindingsJson = JSON.stringify(config.identity.bindings);
    if (bindingsJson !== this.bindingsJson) {
      this.bindingsJson = bindingsJson;
      this.flush();
    }
    const hex = config.auth.awsDerivationKeyHex;
    if (hex !== this.derivationHex) {
      this.derivationHex = hex;
      this.derivationKey = hex === null ? null : Buffer.from(hex, 'hex');
    }
  }

  has(name: string): boolean {
    return this.verifiers.has(name);
  }

  /** Synchronous when this token was verified before and its identity's key is present. */
  authenticate(name: string, token: string, config: CompiledConfig): AuthResult | Promise<AuthResult> {
    const entry = this.verifiers.get(name);
    if (entry === undefined) return new Refusal('unauthorized', `auth.chain names "${name}", which is not an identity provider`);
    const hit = entry.verifier.cached(token, Math.floor(Date.now() / 1000)) as ChainIdentity | undefined;
    if (hit !== undefined) {
      const known = this.resolve(name, hit, config);
      if (known !== undefined) return known;
    }
    return this.verifyAndResolve(name, entry.verifier, token, config);
  }

  private async verifyAndResolve(name: string, verifier: OidcVerifier, token: string, config: CompiledConfig): Promise<AuthResult> {
    const verified = (await verifier.verify(token)) as ChainIdentity | OidcFailure;
    if (verified instanceof OidcFailure) return new Refusal('unauthorized', `the identity-provider token was refused: ${verified.message}`);
    const known = this.resolve(name, verified, config);
    if (known !== undefined) return known;
    // First request of this identity: main provisions its key (and group), then pushes it here.
    const answer = await this.client.request({ kind: 'provision', provider: name, sub: verified.sub, groups: verified.groups });
    if (answer.status !== 200) return new Refusal('unauthorized', errorMessage(answer.body));
    return this.table.key(verified.keyId!) ?? new Refusal('unauthorized', 'the identity could not be provisioned');
  }

  /** The identity's admission record, a refusal, or undefined when main must provision it. */
  private resolve(name: string, identity: ChainIdentity, config: CompiledConfig): AuthResult | undefined {
    if (identity.team === undefined) identity.team = boundTeam(config.identity.bindings, name, identity.groups);
    if (identity.team === null) return new Refusal('unauthorized', `no group binding: none of the token's groups is bound to a team in role_bindings.${name}`);
    if (identity.keyId === undefined) {
      if (this.derivationKey === null) return NO_DERIVATION;
      identity.keyId = identityKeyId(this.derivationKey, name, identity.sub);
    }
    return this.table.key(identity.keyId);
  }

  flush(): number {
    let n = 0;
    for (const { verifier } of this.verifiers.values()) n += verifier.flush();
    return n;
  }
}

function errorMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return message;
  } catch {
    // fall through
  }
  return 'the identity could not be provisioned';
}
