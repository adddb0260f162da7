// What a store keeps for the audit log (admin plane): the entries, each run's head, and the
// holder of the single-writer lease.
export type { AuditEntry } from './entry.js';
export type { RunHead, StoredAuditEntry } from './verify.js';

export interface AuditWriterHolder {
  owner: string;
  pid: number;
  host: string;
}
