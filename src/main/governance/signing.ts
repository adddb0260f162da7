// The virtual-key signer: auth.signing_key is an ed25519 private key (PKCS#8 PEM). Secrets are
// compact JWS (EdDSA) with claims sub (key id), iat, exp, jti, made with jose. Workers get only
// the public key (to verify) and an HMAC key derived from the private one, under which the
// AWS secret of a key with an AWS credential is recomputed rather than stored.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

const AWS_DERIVATION_LABEL = 'gateway aws credential v1\u0000';

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
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`auth.signing_key must be an ed25519 private key, got ${privateKey.asymmetricKeyType ?? 'a non-asymmetric key'}`);
    const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    const awsDerivationKey = createHash('sha256').update(AWS_DERIVATION_LABEL).update(der).digest();
    return new KeySigner(privateKey, publicKeyPem, awsDerivationKey);
  }

  sign(claims: KeyClaims): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(claims.iatSec)
      .setExpirationTime(claims.expSec)
      .sign(this.privateKey);
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
