// SigV4 on the Bedrock routes, for keys minted with `issue_aws_credential`: the signature the
// caller's AWS SDK made is recomputed with @smithy/signature-v4, with the access key id's
// secret derived again here (it is never stored), over the same method, path, query, signed
// headers and body, and compared in constant time. A date more than 15 minutes from now is
// refused, as AWS does. So a boto3 or AWS SDK caller needs only an endpoint and the two
// minted values.
import { Buffer } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import type { CompiledConfig } from '../../shared/config/compiled.js';
import { deriveAwsSecret } from '../../shared/governance/aws-credential.js';
import type { IngressRequest } from '../pipeline/client.js';
import type { KeyTable } from '../governance/key-table.js';
import { Refusal } from '../governance/refusal.js';
import type { AuthResult } from './authenticate.js';

const MAX_SKEW_MS = 15 * 60_000;
const AUTH_PATTERN = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const MALFORMED = new Refusal('unauthorized', 'the SigV4 Authorization header is malformed');
const UNKNOWN = new Refusal('unauthorized', 'the AWS access key id is not a valid gateway credential');
const STALE = new Refusal('unauthorized', 'the SigV4 signature date is more than 15 minutes from the gateway clock');
const MISMATCH = new Refusal('unauthorized', 'the SigV4 signature does not match (wrong secret or altered request)');
const NO_DERIVATION = new Refusal('unauthorized', 'AWS credentials are not available (no auth.signing_key)');

function parseAmzDate(text: string): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (m === null) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

function parseQuery(query: string): Record<string, string> | undefined {
  if (query === '') return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) out[k] = v;
  return out;
}

export class SigV4Verifier {
  private derivationHex: string | null = null;
  private derivationKey: Buffer | null = null;

  verify(req: IngressRequest, table: KeyTable, config: CompiledConfig): AuthResult | Promise<AuthResult> {
    const m = AUTH_PATTERN.exec(req.authorization);
    const raw = req.sigv4;
    if (m === null || raw === undefined) return MALFORMED;
    const [, accessKeyId, scopeDay, region, service, signedHeaders, signature] = m as unknown as string[];
    const entry = table.byAwsKey(accessKeyId!);
    if (entry === undefined) return UNKNOWN;
    const date = parseAmzDate(raw.headers['x-amz-date'] ?? '');
    if (date === null || !raw.headers['x-amz-date']!.startsWith(scopeDay!)) return MALFORMED;
    if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) return STALE;
    const key = this.derivation(config.auth.awsDerivationKeyHex);
    if (key === null) return NO_DERIVATION;
    const headers: Record<string, string> = {};
    for (const name of signedHeaders!.split(';')) {
      const value = raw.headers[name];
      if (value === undefined) return MALFORMED;
      headers[name] = value;
    }
    // The signer trusts a signed x-amz-content-sha256 as the body's hash: check it is.
    const bodyHash = headers['x-amz-content-sha256'];
    if (bodyHash !== undefined && bodyHash !== createHash('sha256').update(req.body).digest('hex')) return MISMATCH;
    const q = raw.path.indexOf('?');
    const signer = new SignatureV4({
      service: service!,
      region: region!,
      credentials: { accessKeyId: accessKeyId!, secretAccessKey: deriveAwsSecret(key, accessKeyId!) },
      sha256: Sha256,
      // Sign exactly the headers the caller signed: by default the signer adds
      // x-amz-content-sha256 to them, which the JS SDK sends but boto3 and the AWS CLI do not.
      applyChecksum: false,
    });
    return signer
      .sign(
        {
          method: 'POST',
          protocol: 'http:',
          hostname: headers.host ?? '',
          path: q < 0 ? raw.path : raw.path.slice(0, q),
          query: parseQuery(req.query),
          headers,
          body: req.body,
        },
        { signingDate: date },
      )
      .then((signed) => {
        const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1] ?? '';
        const a = Buffer.from(expected);
        const b = Buffer.from(signature!);
        return a.length === b.length && timingSafeEqual(a, b) ? entry : MISMATCH;
      });
  }

  private derivation(hex: string | null): Buffer | null {
    if (hex !== this.derivationHex) {
      this.derivationHex = hex;
      this.derivationKey = hex === null ? null : Buffer.from(hex, 'hex');
    }
    return this.derivationKey;
  }
}
