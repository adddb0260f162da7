// `auth: jwt-bearer` (Google service account, Vertex AI): sign an RS256 JWT with the account's
// private key and exchange it at the token URL for an access token (RFC 7523).
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { CompiledAuth } from '../../../shared/config/compiled.js';
import type { Logger } from '../../../shared/log.js';
import { MintedTokenAuth, type TokenTiming } from './minted-token-auth.js';
import { postTokenForm, TokenMintError, type MintedToken } from './token-endpoint.js';

type JwtBearerConfig = Extract<CompiledAuth, { mode: 'jwt-bearer' }>;

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
// Google's ceiling for an assertion's lifetime.
const ASSERTION_LIFETIME_SEC = 3600;

export class JwtBearerAuth extends MintedTokenAuth {
  readonly #auth: JwtBearerConfig;
  readonly #key: KeyObject | null;

  constructor(provider: string, auth: JwtBearerConfig, log: Logger, timing?: Partial<TokenTiming>) {
    super(provider, auth.tokenUrl, log, timing);
    this.#auth = auth;
    this.#key = loadRsaKey(auth.privateKeyPem);
    this.start();
  }

  protected async mint(signal: AbortSignal): Promise<MintedToken> {
    if (this.#key === null) throw new TokenMintError('invalid_private_key', undefined, true);
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: this.#auth.scope })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.#auth.clientEmail)
      .setAudience(this.#auth.audience ?? this.#auth.tokenUrl)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_LIFETIME_SEC)
      .sign(this.#key);
    const form = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion });
    return postTokenForm({
      dispatcher: this.dispatcher,
      tokenUrl: this.#auth.tokenUrl,
      form,
      timeoutMs: this.timing.requestTimeoutMs,
      signal,
    });
  }
}

/** PKCS#8 (as in a service-account JSON) or PKCS#1 PEM; null when unusable for RS256. */
function loadRsaKey(pem: string): KeyObject | null {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'rsa' ? key : null;
  } catch {
    return null; // reported (without the key) by the first mint
  }
}
