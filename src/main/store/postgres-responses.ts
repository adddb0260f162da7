// The postgres store's stored responses, shared by every node on the store: one row per
// response (migration 3), and the running total of their bytes in a one-row table whose row
// lock serializes puts across nodes, so that the size cap holds for the fleet, not per node.
import type pg from 'pg';
import { RESPONSE_EXPIRED_PER_PUT, type ResponseRow, type ResponseTable } from './store.js';
import type { StoredResponse } from '../../shared/responses/stored-response.js';

export type PgQuery = <R extends pg.QueryResultRow>(name: string, text: string, values?: unknown[]) => Promise<R[]>;
export type PgTransaction = (work: (client: pg.PoolClient) => Promise<void>) => Promise<void>;

// Frees the bytes of the rows it removes; answers nothing (the total row is updated in the same statement).
const DROP = `
WITH gone AS (DELETE FROM responses WHERE id = ANY($1::text[]) RETURNING bytes)
UPDATE responses_total SET bytes = bytes - COALESCE((SELECT sum(bytes) FROM gone), 0) WHERE id = 1`;

export class PostgresResponses implements ResponseTable {
  constructor(
    private readonly query: PgQuery,
    private readonly transaction: PgTransaction,
  ) {}

  async write(row: ResponseRow, maxBytes: number, nowMs: number): Promise<void> {
    await this.transaction(async (client) => {
      // The lock first: two nodes' puts then see each other's totals.
      await client.query({ name: 'responses-lock', text: 'SELECT bytes FROM responses_total WHERE id = 1 FOR UPDATE' });
      const expired = await client.query<{ id: string }>({
        name: 'responses-expired',
        text: 'SELECT id FROM responses WHERE expires_at_ms <= $1 ORDER BY expires_at_ms LIMIT $2',
        values: [nowMs, RESPONSE_EXPIRED_PER_PUT],
      });
      await client.query({ name: 'responses-drop', text: DROP, values: [[row.id, ...expired.rows.map((r) => r.id)]] });
      await client.query({
        name: 'responses-insert',
        text: 'INSERT INTO responses (id, key_id, created_at_ms, expires_at_ms, bytes, record) VALUES ($1, $2, $3, $4, $5, $6)',
        values: [row.id, row.keyId, row.createdAtMs, row.expiresAtMs, row.bytes, row.json],
      });
      const total = await client.query<{ bytes: number }>({
        name: 'responses-add',
        text: 'UPDATE responses_total SET bytes = bytes + $1 WHERE id = 1 RETURNING bytes',
        values: [row.bytes],
      });
      let over = (total.rows[0]?.bytes ?? 0) - maxBytes;
      while (over > 0) {
        // The oldest others, as many as free enough (a running sum over the age index).
        const oldest = await client.query<{ id: string; bytes: number }>({
          name: 'responses-oldest',
          text: 'SELECT id, bytes FROM responses WHERE id <> $1 ORDER BY created_at_ms, id LIMIT 64',
          values: [row.id],
        });
        if (oldest.rows.length === 0) break;
        const ids: string[] = [];
        for (const r of oldest.rows) {
          if (over <= 0) break;
          ids.push(r.id);
          over -= r.bytes;
        }
        await client.query({ name: 'responses-drop', text: DROP, values: [ids] });
      }
    });
  }

  async read(id: string): Promise<StoredResponse | null> {
    const rows = await this.query<{ record: string }>('responses-select', 'SELECT record FROM responses WHERE id = $1', [id]);
    return rows.length === 0 ? null : (JSON.parse(rows[0]!.record) as StoredResponse);
  }

  async remove(id: string, keyId: string): Promise<boolean> {
    const rows = await this.query<{ bytes: number }>(
      'responses-delete',
      `WITH gone AS (DELETE FROM responses WHERE id = $1 AND key_id = $2 RETURNING bytes),
       total AS (UPDATE responses_total SET bytes = bytes - COALESCE((SELECT sum(bytes) FROM gone), 0) WHERE id = 1)
       SELECT bytes FROM gone`,
      [id, keyId],
    );
    return rows.length > 0;
  }
}
