// The `oidc` identity-provider module: verifies an IdP's tokens with jose against the issuer's
// live JWKS. The JWKS URL is discovered from the issuer's well-known configuration unless
// `jwks_url` is set; the key set is cached and fetched again when a token names an unknown
// `kid`, at most once per JWKS_REFRESH_COOLDOWN_MS (a flood of made-up kids cannot hammer the
// IdP). Only asymmetric signatures are accepted (never `alg: none`, never HMAC with a public
// key); `iss` and `aud` must match exactly; expiry has a small clock skew. A `ca_cert_pem` is
// added to the public roots, never replacing them, and validation is never turned off.
// Used per request on the data plane (auth.chain) and by main for /auth/token and admin auth.
import { rootCertificates } from 'node:tls';
import { fetch as undiciFetch } from 'undici';
import { egressAgent, guardedAgent } from '../egress/dispatchers.js';
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors, jwtVerify, type FetchImplementation, type JWTVerifyGetKey } from 'jose';
import { VerifiedCache } from './verified-cache.js';

/** Accepted signature algorithms: asymmetric only. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const JWKS_REFRESH_COOLDOWN_MS = 2_000;
const DISCOVERY_RETRY_MS = 2_000;
const FETCH_TIMEOUT_MS = 5_000;
export const DEFAULT_CLOCK_SKEW_SEC = 30;

export interface OidcSettings {
  issuer: string;
  audience: string;
  role_claim?: string;
  jwks_url?: string;
  ca_cert_pem?: string;
  /** Allowed clock skew on exp/nbf/iat, from the `clock_skew` setting (default 30 s). */
  clockSkewSec?: number;
}

export interface VerifiedIdentity {
  sub: string;
  /** The role claim's values (a string claim counts as one group). */
  groups: string[];
  expSec: number;
}

/** Which check refused the token; the message never contains the token. */
export class OidcFailure {
  constructor(
    readonly check: 'signature' | 'issuer' | 'audience' | 'expiry' | 'malformed' | 'unavailable',
    readonly message: string,
  ) {}
}

export interface DiscoveredEndpoints {
  jwks_uri: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
}

export class OidcVerifier {
  private jwks: JWTVerifyGetKey | null = null;
  private discovered: DiscoveredEndpoints | null = null;
  private discoveryFailedAtMs = 0;
  private readonly fetchImpl: FetchImplementation;
  private readonly cache: VerifiedCache<VerifiedIdentity>;

  constructor(
    readonly settings: OidcSettings,
    cacheEntries = 10_000,
  ) {
    this.cache = new VerifiedCache(cacheEntries);
    // Discovery, JWKS and token calls (and any redirect they follow) go through the SSRF guard.
    const dispatcher = settings.ca_cert_pem === undefined ? egressAgent() : guardedAgent({ connect: { ca: [...rootCertificates, settings.ca_cert_pem] } });
    this.fetchImpl = ((url: string, options: RequestInit) =>
      undiciFetch(url, { ...(options as object), dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as FetchImplementation;
  }

  /** fetch that trusts the public roots plus `ca_cert_pem` (for discovery and the code flow). */
  get fetch(): FetchImplementation {
    return this.fetchImpl;
  }

  /** The issuer's well-known configuration (cached once it was read). */
  async endpoints(): Promise<DiscoveredEndpoints> {
    if (this.discovered !== null) return this.discovered;
    const url = `${this.settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const res = await this.fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) } as never);
    if (res.status !== 200) throw new Error(`the issuer's discovery document answered ${res.status}`);
    const doc = (await res.json()) as Partial<DiscoveredEndpoints>;
    if (typeof doc.jwks_uri !== 'string') throw new Error("the issuer's discovery document has no jwks_uri");
    this.discovered = { jwks_uri: doc.jwks_uri, authorization_endpoint: doc.authorization_endpoint, token_endpoint: doc.token_endpoint };
    return this.discovered;
  }

  private async keySet(): Promise<JWTVerifyGetKey> {
    if (this.jwks !== null) return this.jwks;
    let url = this.settings.jwks_url;
    if (url === undefined) {
      if (Date.now() - this.discoveryFailedAtMs < DISCOVERY_RETRY_MS) throw new Error('the issuer discovery failed moments ago');
      try {
        url = (await this.endpoints()).jwks_uri;
      } catch (err) {
        this.discoveryFailedAtMs = Date.now();
        throw err;
      }
    }
    this.jwks = createRemoteJWKSet(new URL(url), {
      cooldownDuration: JWKS_REFRESH_COOLDOWN_MS,
      timeoutDuration: FETCH_TIMEOUT_MS,
      [customFetch]: this.fetchImpl,
    });
    return this.jwks;
  }

  /** A verification made before and not yet expired, or undefined. */
  cached(token: string, nowSec: number): VerifiedIdentity | undefined {
    return this.cache.get(token, nowSec);
  }

  async verify(token: string): Promise<VerifiedIdentity | OidcFailure> {
    const hit = this.cached(token, Math.floor(Date.now() / 1000));
    if (hit !== undefined) return hit;
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return new OidcFailure('malformed', 'the token is not a JWT');
    }
    if (typeof alg !== 'string' || !ALGORITHMS.includes(alg)) {
      return new OidcFailure('signature', `signature check failed: algorithm "${String(alg)}" is not accepted (an asymmetric signature is required)`);
    }
    let getKey: JWTVerifyGetKey;
    try {
      getKey = await this.keySet();
    } catch (err) {
      return new OidcFailure('unavailable', `the identity provider's keys could not be read (${(err as Error).message})`);
    }
    try {
      const { payload } = await jwtVerify(token, getKey, {
        algorithms: ALGORITHMS,
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        clockTolerance: this.settings.clockSkewSec ?? DEFAULT_CLOCK_SKEW_SEC,
        requiredClaims: ['exp', 'sub'],
      });
      const claim = payload[this.settings.role_claim ?? 'groups'];
      const groups = Array.isArray(claim) ? claim.filter((g): g is string => typeof g === 'string') : typeof claim === 'string' ? [claim] : [];
      const verified: VerifiedIdentity = { sub: payload.sub!, groups, expSec: payload.exp! };
      this.cache.set(token, verified);
      return verified;
    } catch (err) {
      return classify(err);
    }
  }

  flush(): number {
    return this.cache.clear();
  }
}

function classify(err: unknown): OidcFailure {
  if (err instanceof errors.JWTExpired) return new OidcFailure('expiry', 'expiry check failed: the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return new OidcFailure('issuer', 'issuer check failed: the token\'s "iss" is not the configured issuer');
    if (err.claim === 'aud') return new OidcFailure('audience', 'audience check failed: the token\'s "aud" is not the configured audience');
    if (err.claim === 'nbf' || err.claim === 'iat') return new OidcFailure('expiry', `expiry check failed: the token is not valid yet ("${err.claim}")`);
    return new OidcFailure('malformed', `the token lacks a valid "${err.claim}" claim`);
  }
  if (err instanceof errors.JWKSNoMatchingKey)
    return new OidcFailure('signature', 'signature check failed: the token is signed by a key the identity provider does not publish');
  if (err instanceof errors.JWSSignatureVerificationFailed) return new OidcFailure('signature', 'signature check failed: the signature does not verify');
  if (err instanceof errors.JOSEAlgNotAllowed) return new OidcFailure('signature', 'signature check failed: the algorithm is not accepted');
  if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError))
    return new OidcFailure('unavailable', "the identity provider's keys could not be read");
  return new OidcFailure('malformed', 'the token is malformed');
}
