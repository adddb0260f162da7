// The sqlite store's stored responses: one row per response (the record as JSON), indexed by
// age and expiry, and the running total of their bytes in a one-row table, all changed in one
// transaction per put (a crash keeps the put whole or not at all; the file keeps it across a
// restart).
import type Database from 'better-sqlite3';
import { RESPONSE_EXPIRED_PER_PUT, type ResponseRow, type ResponseTable } from './store.js';
import type { StoredResponse } from '../../shared/responses/stored-response.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS responses (
  id TEXT PRIMARY KEY, key_id TEXT NOT NULL, created_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL,
  bytes INTEGER NOT NULL, record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_by_age ON responses (created_at_ms, id);
CREATE INDEX IF NOT EXISTS responses_by_expiry ON responses (expires_at_ms);
CREATE TABLE IF NOT EXISTS responses_total (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL);
INSERT OR IGNORE INTO responses_total (id, bytes) VALUES (1, 0);`;

export class SqliteResponses implements ResponseTable {
  private readonly put: (row: ResponseRow, maxBytes: number, nowMs: number) => void;
  private readonly select: Database.Statement<[string]>;
  private readonly removeOwned: (id: string, keyId: string) => boolean;

  constructor(db: Database.Database) {
    db.exec(SCHEMA);
    const expired = db.prepare<[number, number]>('SELECT id FROM responses WHERE expires_at_ms <= ? ORDER BY expires_at_ms LIMIT ?').pluck();
    const bytesOf = db.prepare<[string]>('SELECT bytes FROM responses WHERE id = ?').pluck();
    const del = db.prepare<[string]>('DELETE FROM responses WHERE id = ?');
    const insert = db.prepare(
      'INSERT INTO responses (id, key_id, created_at_ms, expires_at_ms, bytes, record) VALUES (@id, @keyId, @createdAtMs, @expiresAtMs, @bytes, @json)',
    );
    const total = db.prepare('SELECT bytes FROM responses_total WHERE id = 1').pluck();
    const addTotal = db.prepare<[number]>('UPDATE responses_total SET bytes = bytes + ? WHERE id = 1');
    const oldest = db.prepare<[string]>('SELECT id FROM responses WHERE id <> ? ORDER BY created_at_ms, id LIMIT 1').pluck();
    this.select = db.prepare<[string]>('SELECT record FROM responses WHERE id = ?').pluck();
    const drop = (id: string): void => {
      const bytes = bytesOf.get(id) as number | undefined;
      if (bytes === undefined) return;
      del.run(id);
      addTotal.run(-bytes);
    };
    this.put = db.transaction((row: ResponseRow, maxBytes: number, nowMs: number) => {
      for (const id of expired.all(nowMs, RESPONSE_EXPIRED_PER_PUT) as string[]) drop(id);
      drop(row.id);
      insert.run(row);
      addTotal.run(row.bytes);
      while ((total.get() as number) > maxBytes) {
        const id = oldest.get(row.id) as string | undefined;
        if (id === undefined) break;
        drop(id);
      }
    });
    const keyOf = db.prepare<[string]>('SELECT key_id FROM responses WHERE id = ?').pluck();
    this.removeOwned = db.transaction((id: string, keyId: string) => {
      if (keyOf.get(id) !== keyId) return false;
      drop(id);
      return true;
    });
  }

  write(row: ResponseRow, maxBytes: number, nowMs: number): void {
    this.put(row, maxBytes, nowMs);
  }

  read(id: string): StoredResponse | null {
    const json = this.select.get(id) as string | undefined;
    return json === undefined ? null : (JSON.parse(json) as StoredResponse);
  }

  remove(id: string, keyId: string): boolean {
    return this.removeOwned(id, keyId);
  }
}
