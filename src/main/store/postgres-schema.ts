// The postgres schema as numbered migrations. Each runs once, in order, inside its own
// transaction, and records its number in gateway_migrations; the whole walk runs under a
// session advisory lock so that several nodes booting together apply each migration once.
import type pg from 'pg';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'usage, governance, breaker trips, audit',
    sql: `
CREATE TABLE IF NOT EXISTS usage_daily (
  day INTEGER NOT NULL, pool TEXT NOT NULL, lane TEXT NOT NULL, provider TEXT NOT NULL,
  tokens_input BIGINT NOT NULL DEFAULT 0, tokens_output BIGINT NOT NULL DEFAULT 0,
  tokens_cache_read BIGINT NOT NULL DEFAULT 0, tokens_cache_creation BIGINT NOT NULL DEFAULT 0,
  requests BIGINT NOT NULL DEFAULT 0, truncated BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, pool, lane, provider)
);
CREATE TABLE IF NOT EXISTS usage_key_daily (
  day INTEGER NOT NULL, key_id TEXT NOT NULL, model TEXT NOT NULL, provider TEXT NOT NULL,
  tokens_input BIGINT NOT NULL DEFAULT 0, tokens_output BIGINT NOT NULL DEFAULT 0,
  tokens_cache_read BIGINT NOT NULL DEFAULT 0, tokens_cache_creation BIGINT NOT NULL DEFAULT 0,
  requests BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, key_id, model, provider)
);
CREATE TABLE IF NOT EXISTS gov_keys (id TEXT PRIMARY KEY, record JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS gov_groups (name TEXT PRIMARY KEY, record JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS gov_revocations (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL, revoked_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS gov_counters (holder TEXT PRIMARY KEY, words JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS breaker_trips (
  pool TEXT NOT NULL, lane TEXT NOT NULL, trip_count BIGINT NOT NULL, last_trip_at BIGINT NOT NULL,
  PRIMARY KEY (pool, lane)
);
CREATE TABLE IF NOT EXISTS audit_log (
  id BIGSERIAL PRIMARY KEY, run TEXT NOT NULL, seq BIGINT NOT NULL, ts BIGINT NOT NULL,
  action TEXT NOT NULL, resource TEXT NOT NULL, outcome TEXT NOT NULL, principal TEXT NOT NULL,
  prev_hash TEXT NOT NULL, hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_runs (run TEXT PRIMARY KEY, last_seq BIGINT NOT NULL, last_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit_writer (
  id INTEGER PRIMARY KEY CHECK (id = 1), owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);`,
  },
  {
    version: 2,
    name: 'flush batch ids, fleet counters, change version, shared config',
    sql: `
CREATE TABLE IF NOT EXISTS flush_batches (stream TEXT PRIMARY KEY, seq BIGINT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE SEQUENCE IF NOT EXISTS fleet_change;
CREATE TABLE IF NOT EXISTS fleet_counters (
  holder TEXT NOT NULL, value INTEGER NOT NULL, tag INTEGER NOT NULL, count BIGINT NOT NULL,
  last_delta BIGINT NOT NULL, changed BIGINT NOT NULL,
  PRIMARY KEY (holder, value)
);
CREATE INDEX IF NOT EXISTS fleet_counters_changed ON fleet_counters (changed);
CREATE TABLE IF NOT EXISTS gov_version (id INTEGER PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL);
INSERT INTO gov_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
CREATE TABLE IF NOT EXISTS shared_config (id INTEGER PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, origin TEXT NOT NULL, document JSONB NOT NULL);`,
  },
  {
    version: 3,
    name: 'stored responses (Responses API state)',
    sql: `
CREATE TABLE IF NOT EXISTS responses (
  id TEXT PRIMARY KEY, key_id TEXT NOT NULL, created_at_ms BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL,
  bytes BIGINT NOT NULL, record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_by_age ON responses (created_at_ms, id);
CREATE INDEX IF NOT EXISTS responses_by_expiry ON responses (expires_at_ms);
CREATE TABLE IF NOT EXISTS responses_total (id INTEGER PRIMARY KEY CHECK (id = 1), bytes BIGINT NOT NULL);
INSERT INTO responses_total (id, bytes) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;`,
  },
];

/** A fixed advisory-lock key per schema: nodes on other schemas of one database do not wait. */
function lockKey(schema: string): string {
  return `gateway-migrations:${schema}`;
}

/** Applies the migrations not yet recorded; safe to run on every boot of every node. */
export async function migrate(client: pg.ClientBase, schema: string): Promise<number[]> {
  const applied: number[] = [];
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`).catch((err: Error & { code?: string }) => {
    // Two nodes creating the schema at once: the loser sees a unique violation, and the schema exists.
    if (err.code !== '23505' && err.code !== '42P06') throw err;
  });
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey(schema)]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS gateway_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM gateway_migrations')).rows.map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO gateway_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`postgres store: migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
      }
      applied.push(m.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey(schema)]).catch(() => undefined);
  }
  return applied;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
