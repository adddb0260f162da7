// The authenticate step: who is calling. Under `auth.chain: []` (the open front door) nobody
// is asked; under `[keys]` the caller must present a valid virtual key (a bearer secret in the
// header its SDK uses, or a SigV4 signature made with the key's AWS credential on the Bedrock
// routes), else 401 in the ingress protocol's shape. Answers synchronously when the key was
// verified before (the cache), with a promise the first time. Identity-provider names in the
// chain (src/worker/auth/oidc-chain.ts) verify the caller's IdP token instead; a mixed chain
// (`[keys, corp]`) tries its entries in order and the first that accepts wins.
import type { CompiledConfig } from '../../shared/config/compiled.js';
import type { IngressRequest } from '../pipeline/client.js';
import type { AdmissionKey, KeyTable } from '../governance/key-table.js';
import { Refusal } from '../governance/refusal.js';
import { isSigV4, presentedSecret } from './credential.js';
import type { KeyVerifier, VerifiedKey } from './key-verifier.js';
import type { SigV4Verifier } from './sigv4-verifier.js';
import type { OidcChain } from './oidc-chain.js';

/** A key, null for the open front door, or a refusal. */
export type AuthResult = AdmissionKey | null | Refusal;

const NO_KEY = new Refusal('unauthorized', 'a valid gateway key is required (Authorization: Bearer, x-api-key, x-goog-api-key or a SigV4 signature)');
const BAD_KEY = new Refusal('unauthorized', 'the key is not valid (bad signature, malformed or expired)');
const UNKNOWN_KEY = new Refusal('unauthorized', 'the key is not valid (revoked or unknown)');
const ROTATED_KEY = new Refusal('unauthorized', 'the key is not valid (it was rotated: use the new secret)');
const NO_MODULE = new Refusal('unauthorized', 'no module of auth.chain can verify this caller');

export class Authenticator {
  constructor(
    private readonly verifier: KeyVerifier,
    private readonly table: KeyTable,
    private readonly sigv4: SigV4Verifier,
    private readonly oidc: OidcChain | null = null,
  ) {}

  /** `nowSec`: the request's clock reading (epoch seconds), shared with admission. */
  authenticate(req: IngressRequest, config: CompiledConfig, nowSec: number): AuthResult | Promise<AuthResult> {
    const chain = config.auth.chain;
    if (chain.length === 0) return null;
    if (chain.length === 1 && chain[0] === 'keys') return this.byKey(req, config, nowSec);
    return this.byChain(req, config, chain, 0, null, nowSec);
  }

  /** Entries from `at` on, in order; the last refusal when none accepts. */
  private byChain(
    req: IngressRequest,
    config: CompiledConfig,
    chain: readonly string[],
    at: number,
    refused: Refusal | null,
    nowSec: number,
  ): AuthResult | Promise<AuthResult> {
    for (let i = at; i < chain.length; i++) {
      const name = chain[i]!;
      let result: AuthResult | Promise<AuthResult>;
      if (name === 'keys') result = this.byKey(req, config, nowSec);
      else if (this.oidc !== null && this.oidc.has(name)) {
        const token = presentedSecret(req);
        result = token === '' ? NO_KEY : this.oidc.authenticate(name, token, config);
      } else continue;
      if (result instanceof Promise) {
        return result.then((r) => (r instanceof Refusal ? this.byChain(req, config, chain, i + 1, r, Math.floor(Date.now() / 1000)) : r));
      }
      if (!(result instanceof Refusal)) return result;
      refused = result;
    }
    return refused ?? NO_MODULE;
  }

  private byKey(req: IngressRequest, config: CompiledConfig, nowSec: number): AuthResult | Promise<AuthResult> {
    if (isSigV4(req.authorization)) return this.sigv4.verify(req, this.table, config);
    const secret = presentedSecret(req);
    if (secret === '') return NO_KEY;
    const hit = this.verifier.cached(secret, nowSec);
    if (hit !== undefined) return this.resolve(hit);
    return this.verifier.verify(secret).then((verified) => (verified === null ? BAD_KEY : this.resolve(verified)));
  }

  /**
   * May `secret` read GET /metrics and GET /stats under a non-empty chain right now: a valid
   * key (signature, expiry, not revoked or rotated) that is enabled, in no frozen group of its
   * chain. A disabled key is disabled everywhere, not only on the model routes.
   */
  async valid(secret: string): Promise<boolean> {
    if (secret === '') return false;
    const verified = this.verifier.cached(secret, Math.floor(Date.now() / 1000)) ?? (await this.verifier.verify(secret));
    if (verified === null) return false;
    const entry = this.resolve(verified);
    if (entry === null || entry instanceof Refusal || !entry.key.enabled) return false;
    for (const group of entry.chain) if (!group.enabled) return false;
    return true;
  }

  /** Revocation and rotation: the key must still be in main's table with this very jti. */
  private resolve(verified: VerifiedKey): AuthResult {
    const entry = this.table.key(verified.sub);
    if (entry === undefined) return UNKNOWN_KEY;
    if (entry.key.jti !== verified.jti) return ROTATED_KEY;
    return entry;
  }
}
