// The sqlite tables of the durable audit log (admin plane): the entries in append order, each
// run's last (seq, hash) so a deleted tail is noticed, and the single-writer lease row.
import process from 'node:process';
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';
import type { AuditEntry, AuditWriterHolder, RunHead, StoredAuditEntry } from '../audit/store-records.js';

const AUDIT_SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  action TEXT NOT NULL,
  resource TEXT NOT NULL,
  outcome TEXT NOT NULL,
  principal TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_runs (
  run TEXT PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  last_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_writer (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  owner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);`;

/** A holder on this host whose pid is gone left a stale lease (a crash): it may be taken at once. */
export function holderAlive(holder: AuditWriterHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SqliteAudit {
  private readonly insert: Database.Statement;
  private readonly upsertHead: Database.Statement;
  private readonly appendTx: (run: string, e: AuditEntry) => void;
  private readonly acquireTx: Database.Transaction<(owner: string, pid: number, ttlMs: number) => AuditWriterHolder | null>;

  constructor(private readonly db: Database.Database) {
    db.exec(AUDIT_SCHEMA);
    this.insert = db.prepare('INSERT INTO audit_log (run, seq, ts, action, resource, outcome, principal, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.upsertHead = db.prepare(
      'INSERT INTO audit_runs (run, last_seq, last_hash) VALUES (?, ?, ?) ON CONFLICT (run) DO UPDATE SET last_seq = excluded.last_seq, last_hash = excluded.last_hash',
    );
    this.appendTx = db.transaction((run: string, e: AuditEntry) => {
      this.insert.run(run, e.seq, e.ts, e.action, e.resource, e.outcome, e.principal, e.prev_hash, e.hash);
      this.upsertHead.run(run, e.seq, e.hash);
    });
    const select = db.prepare('SELECT owner, pid, host, expires_at_ms AS expiresAtMs FROM audit_writer WHERE id = 1');
    const upsert = db.prepare(
      'INSERT INTO audit_writer (id, owner, pid, host, expires_at_ms) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host, expires_at_ms = excluded.expires_at_ms',
    );
    this.acquireTx = db.transaction((owner: string, pid: number, ttlMs: number) => {
      const now = Date.now();
      const row = select.get() as (AuditWriterHolder & { expiresAtMs: number }) | undefined;
      if (row !== undefined && row.owner !== owner && row.expiresAtMs > now && holderAlive(row)) {
        return { owner: row.owner, pid: row.pid, host: row.host };
      }
      upsert.run(owner, pid, hostname(), now + ttlMs);
      return null;
    });
  }

  acquire(owner: string, pid: number, ttlMs: number): AuditWriterHolder | null {
    // IMMEDIATE: two processes racing for the lease serialize on sqlite's write lock.
    return this.acquireTx.immediate(owner, pid, ttlMs);
  }

  release(owner: string): void {
    this.db.prepare('DELETE FROM audit_writer WHERE id = 1 AND owner = ?').run(owner);
  }

  append(run: string, entry: AuditEntry): void {
    this.appendTx(run, entry);
  }

  read(): { rows: StoredAuditEntry[]; heads: RunHead[] } {
    const rows = this.db
      .prepare('SELECT id AS position, run, seq, ts, action, resource, outcome, principal, prev_hash, hash FROM audit_log ORDER BY id')
      .all() as StoredAuditEntry[];
    const heads = this.db.prepare('SELECT run, last_seq AS seq, last_hash AS hash FROM audit_runs').all() as RunHead[];
    return { rows, heads };
  }
}
