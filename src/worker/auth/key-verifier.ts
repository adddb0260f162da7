// Stateless verification of virtual keys: a compact JWS (EdDSA) checked against the public
// half of auth.signing_key, with its expiry. What is verified once is kept in a small bounded
// cache (oldest dropped first), so a key's signature is checked once per worker, not per
// request; POST /auth/cache/flush empties it. Revocation and everything that may change
// without re-issuing (enabled, pools, group, limits, the current jti) are read from the key
// table by `sub` on every request, never from the token.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';
import { VerifiedCache } from '../../shared/identity/verified-cache.js';

export interface VerifiedKey {
  sub: string;
  jti: string;
  expSec: number;
}

export class KeyVerifier {
  private publicKey: KeyObject | null = null;
  private pem: string | null = null;
  private readonly cache = new VerifiedCache<VerifiedKey>(10_000);

  /** With each applied config: the verifying key and the cache bound. */
  configure(publicKeyPem: string | null, capacity: number): void {
    this.cache.resize(capacity);
    if (publicKeyPem === this.pem) return;
    this.pem = publicKeyPem;
    this.publicKey = publicKeyPem === null ? null : createPublicKey(publicKeyPem);
    this.cache.clear(); // another signing key: nothing verified under the old one stands
  }

  /** A cached verification, or undefined (verify() then). Expired entries are dropped. */
  cached(token: string, nowSec: number): VerifiedKey | undefined {
    return this.cache.get(token, nowSec);
  }

  /** Checks signature, algorithm and expiry; null when any fails. */
  async verify(token: string): Promise<VerifiedKey | null> {
    const key = this.publicKey;
    if (key === null) return null;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['EdDSA'] });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
      const verified: VerifiedKey = { sub: payload.sub, jti: payload.jti, expSec: payload.exp };
      this.cache.set(token, verified);
      return verified;
    } catch {
      return null;
    }
  }

  /** Empty the cache; how many entries it held. */
  flush(): number {
    return this.cache.clear();
  }
}
