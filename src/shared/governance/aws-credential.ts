// The AWS secret access key of a virtual key with `issue_aws_credential`: derived, never
// stored. HMAC-SHA256 under a key derived from auth.signing_key (main/governance/signing.ts),
// over the access key id, base64 (40 characters like AWS's own). Main derives it once to
// answer the mint; workers derive it again to check a SigV4 signature.
import { createHmac } from 'node:crypto';

export function deriveAwsSecret(derivationKey: Buffer, accessKeyId: string): string {
  return createHmac('sha256', derivationKey).update(accessKeyId).digest('base64').slice(0, 40);
}
