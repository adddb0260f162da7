// The virtual-key signer: auth.signing_key is an ed25519 private key (PKCS#8 PEM). Secrets are
// compact JWS (EdDSA) with claims sub (key id), iat, exp, jti, signed with node:crypto (one
// synchronous ed25519 signature, ~50 µs; jose's async WebCrypto path took ~1 ms of main-thread
// CPU per mint), verified by workers with jose like any JWS. Workers get only
// the public key (to verify) and an HMAC key derived from the private one, under which the
// AWS secret of a key with an AWS credential is recomputed rather than stored.
import { Buffer } from 'node:buffer';
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

const AWS_DERIVATION_LABEL = 'gateway aws credential v1\u0000';
const PROTECTED_HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');

export interface KeyClaims {
  sub: string;
  jti: string;
  iatSec: number;
  expSec: number;
}

export class KeySigner {
  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicKeyPem: string,
    readonly awsDerivationKey: Buffer,
  ) {}

  /** null when `pem` is absent; throws with a clear message when it is not an ed25519 key. */
  static fromPem(pem: string | undefined): KeySigner | null {
    if (pem === undefined || pem === '') return null;
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error(`auth.signing_key must be an ed25519 private key, got ${privateKey.asymmetricKeyType ?? 'a non-asymmetric key'}`);
    const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    const awsDerivationKey = createHash('sha256').update(AWS_DERIVATION_LABEL).update(der).digest();
    return new KeySigner(privateKey, publicKeyPem, awsDerivationKey);
  }

  sign(claims: KeyClaims): Promise<string> {
    const payload = Buffer.from(JSON.stringify({ sub: claims.sub, jti: claims.jti, iat: claims.iatSec, exp: claims.expSec })).toString('base64url');
    const signingInput = `${PROTECTED_HEADER}.${payload}`;
    return Promise.resolve(`${signingInput}.${sign(null, Buffer.from(signingInput), this.privateKey).toString('base64url')}`);
  }
}

/** What the compiled config carries for workers to verify keys (never the private key). */
export function compileKeyVerification(pem: string | undefined): { keyVerifyPem: string | null; awsDerivationKeyHex: string | null } {
  let signer: KeySigner | null = null;
  try {
    signer = KeySigner.fromPem(pem);
  } catch {
    signer = null; // reported by the governance service at boot, with the reason
  }
  return { keyVerifyPem: signer?.publicKeyPem ?? null, awsDerivationKeyHex: signer?.awsDerivationKey.toString('hex') ?? null };
}
