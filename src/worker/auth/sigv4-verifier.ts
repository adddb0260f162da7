// SigV4 on the Bedrock routes, for keys minted with `issue_aws_credential`: the signature the
// caller's AWS SDK made is recomputed with @smithy/signature-v4 from the access key id's
// derived secret (never stored), over the same method, path, query, signed headers and body
// hash, and compared in constant time. Stale dates (over 15 minutes off) are refused.
// Not implemented yet in this build: a SigV4 caller is refused as unauthenticated.
import type { CompiledConfig } from '../../shared/config/compiled.js';
import type { IngressRequest } from '../pipeline/client.js';
import type { KeyTable } from '../governance/key-table.js';
import { Refusal } from '../governance/refusal.js';
import type { AuthResult } from './authenticate.js';

const UNSUPPORTED = new Refusal('unauthorized', 'SigV4 signatures are not accepted here; use the key as a bearer token');

export class SigV4Verifier {
  verify(_req: IngressRequest, _table: KeyTable, _config: CompiledConfig): AuthResult | Promise<AuthResult> {
    return UNSUPPORTED;
  }
}
