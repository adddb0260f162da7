// The audit entry and its hash chain: hash = sha256(prev_hash | seq | ts | action | resource |
// outcome | principal), hex. Tamper-evident (an altered, reordered or deleted entry breaks the
// chain), not tamper-proof: whoever can rewrite the whole log can rewrite the chain too.
import { createHash } from 'node:crypto';

export type AuditOutcome = 'applied' | 'rejected';

export interface AuditEntry {
  seq: number;
  ts: number;
  action: string;
  resource: string;
  outcome: AuditOutcome;
  principal: string;
  prev_hash: string;
  hash: string;
}

export function auditHash(e: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(`${e.prev_hash}|${e.seq}|${e.ts}|${e.action}|${e.resource}|${e.outcome}|${e.principal}`).digest('hex');
}
