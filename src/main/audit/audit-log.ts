// This node's audit log: a bounded in-memory ring (what GET /audit pages) that chains every
// entry, and the durable sink it also writes to when this process is the store's writer.
import type { AuditEntry, AuditOutcome } from './entry.js';
import { auditHash } from './entry.js';
import type { DurableAuditSink } from './durable-sink.js';
import { auditNameProblem, auditResource, auditSafeId } from './audit-text.js';

/** Entries kept in memory; older ones are dropped (the durable sink keeps them). */
const AUDIT_RING_CAPACITY = 10_000;

/** An entry as GET /audit shows it (AuditEntry plus the additive chain_prev_hash). */
export interface AuditEntryShown extends AuditEntry {
  chain_prev_hash: string;
}

export interface AuditAttempt {
  action: string;
  resource: string;
  outcome: AuditOutcome;
  principal: string;
}

export class AuditLog {
  private readonly ring: AuditEntry[] = [];
  /** Index in `ring` of the oldest entry once the ring is full. */
  private head = 0;
  private seq = 0;
  private lastHash = '';

  constructor(
    private readonly sink: DurableAuditSink | null,
    private readonly capacity = AUDIT_RING_CAPACITY,
  ) {}

  append(attempt: AuditAttempt, nowMs = Date.now()): AuditEntry {
    // A refused attempt may name anything: the resource is escaped and bounded here, for every
    // route (and the principal escaped, should a module ever hand over one with a "|").
    const fields = {
      ...attempt,
      resource: auditResource(attempt.resource),
      principal: auditNameProblem(attempt.principal) === null ? attempt.principal : auditSafeId(attempt.principal),
    };
    const partial = { seq: ++this.seq, ts: Math.floor(nowMs / 1000), ...fields, prev_hash: this.lastHash };
    const entry: AuditEntry = { ...partial, hash: auditHash(partial) };
    this.lastHash = entry.hash;
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else {
      this.ring[this.head] = entry;
      this.head = (this.head + 1) % this.capacity;
    }
    this.sink?.append(entry);
    return entry;
  }

  /**
   * Newest first, entries with seq below `beforeSeq` (all when undefined), at most `limit`, as
   * GET /audit shows them: each with `chain_prev_hash`, the predecessor hash its own hash covers.
   * The spec has the oldest retained entry whose predecessor was pruned show an empty prev_hash;
   * its chain_prev_hash keeps the pruned one's hash, so that entry still verifies.
   */
  newestFirst(limit: number, beforeSeq?: number): { items: AuditEntryShown[]; more: boolean } {
    const items: AuditEntryShown[] = [];
    const n = this.ring.length;
    for (let i = n - 1; i >= 0; i--) {
      const entry = this.ring[(this.head + i) % n]!;
      if (beforeSeq !== undefined && entry.seq >= beforeSeq) continue;
      if (items.length === limit) return { items, more: true };
      const pruned = i === 0 && entry.seq > 1;
      items.push({ ...entry, prev_hash: pruned ? '' : entry.prev_hash, chain_prev_hash: entry.prev_hash });
    }
    return { items, more: false };
  }

  /** `writer`: this process writes the store's durable log; `standby`: another process does; `none`: no durable log. */
  durableState(): 'writer' | 'standby' | 'none' {
    if (this.sink === null) return 'none';
    if (this.sink.isAttached) return 'writer';
    return this.sink.writer !== null ? 'standby' : 'none';
  }

  /** The ring oldest first (a durable sink taking over writes them). */
  oldestFirst(): AuditEntry[] {
    const n = this.ring.length;
    const out: AuditEntry[] = [];
    for (let i = 0; i < n; i++) out.push(this.ring[(this.head + i) % n]!);
    return out;
  }

  get size(): number {
    return this.ring.length;
  }
}
