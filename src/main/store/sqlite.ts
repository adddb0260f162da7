// The sqlite store (better-sqlite3, WAL): the embedded durable default. One transaction per
// flush, so a crash leaves either the whole flush or none of it. Key, group and revocation
// writes are committed before the admin call answers: in WAL mode a commit is in the OS
// before better-sqlite3 returns, so a killed process (kill -9) loses none of them (a power
// loss can lose the last commits under synchronous=NORMAL).
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Store, type BreakerTripRow, type FlushBatch, type UsageRow } from './store.js';
import type { CounterRow, GovernanceRecords, GroupRecord, KeyRecord, KeyUsageRow, Revocation } from './records.js';
import { SqliteAudit } from './sqlite-audit.js';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { SqliteUsageReads } from './sqlite-usage-reads.js';
import { SqliteResponses } from './sqlite-responses.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS usage_daily (
  day INTEGER NOT NULL,
  pool TEXT NOT NULL,
  lane TEXT NOT NULL,
  provider TEXT NOT NULL,
  tokens_input INTEGER NOT NULL DEFAULT 0,
  tokens_output INTEGER NOT NULL DEFAULT 0,
  tokens_cache_read INTEGER NOT NULL DEFAULT 0,
  tokens_cache_creation INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  truncated INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, pool, lane, provider)
);
-- --- governance ---
CREATE TABLE IF NOT EXISTS gov_keys (id TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS gov_groups (name TEXT PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS gov_revocations (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, revoked_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS gov_counters (holder TEXT PRIMARY KEY, words TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS usage_key_daily (
  day INTEGER NOT NULL,
  key_id TEXT NOT NULL,
  model TEXT NOT NULL,
  provider TEXT NOT NULL,
  tokens_input INTEGER NOT NULL DEFAULT 0,
  tokens_output INTEGER NOT NULL DEFAULT 0,
  tokens_cache_read INTEGER NOT NULL DEFAULT 0,
  tokens_cache_creation INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, key_id, model, provider)
);
-- the last applied seq of each flush stream: a retried batch is skipped in its own transaction
CREATE TABLE IF NOT EXISTS flush_batches (stream TEXT PRIMARY KEY, seq INTEGER NOT NULL);
-- GET /usage reads a day's rows in key order from this index alone (the primary key's index
-- would send it to the table once per row, in random order: twice the CPU at 100k keys).
CREATE INDEX IF NOT EXISTS usage_key_daily_totals ON usage_key_daily
  (day, key_id, model, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests);
-- Bumped in every per-key usage flush: a usage read whose generation did not move reuses its
-- last answer (sqlite-usage-summary.ts).
CREATE TABLE IF NOT EXISTS usage_key_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
INSERT OR IGNORE INTO usage_key_generation (id, n) VALUES (1, 0);`;

// Records the batch unless it (or a later one) was applied: no row changed = already applied.
const TAKE_BATCH = `
INSERT INTO flush_batches (stream, seq) VALUES (?, ?)
ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq WHERE flush_batches.seq < excluded.seq`;

/** What an upsert adds to a stored row of either usage table (usage-counts.ts). */
const ADD_USAGE_COUNTS = `
  tokens_input = tokens_input + excluded.tokens_input,
  tokens_output = tokens_output + excluded.tokens_output,
  tokens_cache_read = tokens_cache_read + excluded.tokens_cache_read,
  tokens_cache_creation = tokens_cache_creation + excluded.tokens_cache_creation,
  requests = requests + excluded.requests`;

const KEY_UPSERT = `
INSERT INTO usage_key_daily (day, key_id, model, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests)
VALUES (@day, @keyId, @model, @provider, @tokensInput, @tokensOutput, @tokensCacheRead, @tokensCacheCreation, @requests)
ON CONFLICT (day, key_id, model, provider) DO UPDATE SET${ADD_USAGE_COUNTS}`;

const KEY_SELECT_DAY = `
SELECT day, key_id AS keyId, model, provider, tokens_input AS tokensInput, tokens_output AS tokensOutput,
  tokens_cache_read AS tokensCacheRead, tokens_cache_creation AS tokensCacheCreation, requests
FROM usage_key_daily WHERE day = ?`;

const UPSERT = `
INSERT INTO usage_daily (day, pool, lane, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests, truncated)
VALUES (@day, @pool, @lane, @provider, @tokensInput, @tokensOutput, @tokensCacheRead, @tokensCacheCreation, @requests, @truncated)
ON CONFLICT (day, pool, lane, provider) DO UPDATE SET${ADD_USAGE_COUNTS},
  truncated = truncated + excluded.truncated`;

const SELECT_DAY = `
SELECT day, pool, lane, provider, tokens_input AS tokensInput, tokens_output AS tokensOutput,
  tokens_cache_read AS tokensCacheRead, tokens_cache_creation AS tokensCacheCreation, requests, truncated
FROM usage_daily WHERE day = ? ORDER BY pool, lane, provider`;

// --- breaker trips (routing) ---
const TRIPS_SCHEMA = `
CREATE TABLE IF NOT EXISTS breaker_trips (
  pool TEXT NOT NULL,
  lane TEXT NOT NULL,
  trip_count INTEGER NOT NULL,
  last_trip_at INTEGER NOT NULL,
  PRIMARY KEY (pool, lane)
);`;
const TRIPS_UPSERT = `
INSERT INTO breaker_trips (pool, lane, trip_count, last_trip_at) VALUES (@pool, @lane, @tripCount, @lastTripAt)
ON CONFLICT (pool, lane) DO UPDATE SET trip_count = excluded.trip_count, last_trip_at = excluded.last_trip_at`;
const TRIPS_SELECT = `SELECT pool, lane, trip_count AS tripCount, last_trip_at AS lastTripAt FROM breaker_trips ORDER BY pool, lane`;
// --- end breaker trips (routing) ---

export class SqliteStore extends Store {
  readonly module = 'sqlite';
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly selectDay: Database.Statement;
  private readonly addAll: (rows: UsageRow[], batch?: FlushBatch) => void;
  private readonly statements: Record<string, Database.Statement<unknown[]>>;
  private readonly addKeyAll: (rows: KeyUsageRow[], batch?: FlushBatch) => void;
  private readonly revokeTx: (r: Revocation) => void;
  private readonly removeGroupTx: (name: string) => void;
  private readonly countersTx: (rows: CounterRow[]) => void;
  private readonly audit: SqliteAudit;
  private readonly usageReads: SqliteUsageReads;

  constructor(path: string) {
    super();
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.upsert = this.db.prepare(UPSERT);
    this.selectDay = this.db.prepare(SELECT_DAY);
    const takeBatch = this.db.prepare(TAKE_BATCH);
    const take = (batch: FlushBatch | undefined): boolean => batch === undefined || takeBatch.run(batch.stream, batch.seq).changes > 0;
    this.addAll = this.db.transaction((rows: UsageRow[], batch?: FlushBatch) => {
      if (!take(batch)) return;
      for (const row of rows) this.upsert.run(row);
    });
    const st: Record<string, Database.Statement<unknown[]>> = (this.statements = {
      keyUpsert: this.db.prepare(KEY_UPSERT),
      keySelectDay: this.db.prepare(KEY_SELECT_DAY),
      putKey: this.db.prepare('INSERT INTO gov_keys (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record'),
      deleteKey: this.db.prepare('DELETE FROM gov_keys WHERE id = ?'),
      putRevocation: this.db.prepare('INSERT OR REPLACE INTO gov_revocations (id, expires_at, revoked_at) VALUES (@id, @expires_at, @revoked_at)'),
      putGroup: this.db.prepare('INSERT INTO gov_groups (name, record) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET record = excluded.record'),
      deleteGroup: this.db.prepare('DELETE FROM gov_groups WHERE name = ?'),
      putCounters: this.db.prepare('INSERT OR REPLACE INTO gov_counters (holder, words) VALUES (?, ?)'),
      deleteCounters: this.db.prepare('DELETE FROM gov_counters WHERE holder = ?'),
    });
    const bumpKeyGeneration = this.db.prepare('UPDATE usage_key_generation SET n = n + 1 WHERE id = 1');
    this.addKeyAll = this.db.transaction((rows: KeyUsageRow[], batch?: FlushBatch) => {
      if (!take(batch)) return;
      for (const row of rows) st.keyUpsert!.run(row);
      bumpKeyGeneration.run();
    });
    this.revokeTx = this.db.transaction((r: Revocation) => {
      st.deleteKey!.run(r.id);
      st.deleteCounters!.run(`key:${r.id}`);
      st.putRevocation!.run(r);
    });
    this.removeGroupTx = this.db.transaction((name: string) => {
      st.deleteGroup!.run(name);
      st.deleteCounters!.run(`group:${name}`);
    });
    this.countersTx = this.db.transaction((rows: CounterRow[]) => {
      for (const row of rows) {
        if (row.words === null) st.deleteCounters!.run(row.holder);
        else st.putCounters!.run(row.holder, JSON.stringify(row.words));
      }
    });
    this.audit = new SqliteAudit(this.db);
    this.usageReads = new SqliteUsageReads(path, this.db);
    // --- breaker trips (routing) ---
    this.db.exec(TRIPS_SCHEMA);
    const tripsUpsert = this.db.prepare(TRIPS_UPSERT);
    this.tripsSelect = this.db.prepare(TRIPS_SELECT);
    this.saveTrips = this.db.transaction((rows: BreakerTripRow[]) => {
      for (const row of rows) tripsUpsert.run(row);
    });
    this.responses = new SqliteResponses(this.db);
  }

  // --- responses state ---
  protected readonly responses: SqliteResponses;
  // --- end responses state ---

  // --- breaker trips (routing) ---
  private readonly tripsSelect: Database.Statement;
  private readonly saveTrips: (rows: BreakerTripRow[]) => void;

  protected async writeBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    this.saveTrips(rows);
  }

  protected async readBreakerTrips(): Promise<BreakerTripRow[]> {
    return this.tripsSelect.all() as BreakerTripRow[];
  }
  // --- end breaker trips (routing) ---

  protected async addUsageRows(rows: UsageRow[], batch?: FlushBatch): Promise<void> {
    this.addAll(rows, batch);
  }

  protected async readUsageDay(day: number): Promise<UsageRow[]> {
    return this.selectDay.all(day) as UsageRow[];
  }

  // --- governance ---

  protected async readGovernance(): Promise<GovernanceRecords> {
    // Plucked: a million keys come back as their JSON texts, not a million row objects as well.
    const keys = this.db.prepare('SELECT record FROM gov_keys').pluck().all() as Array<string | KeyRecord>;
    for (let i = 0; i < keys.length; i++) keys[i] = JSON.parse(keys[i] as string) as KeyRecord;
    const groups = (this.db.prepare('SELECT record FROM gov_groups').all() as Array<{ record: string }>).map((r) => JSON.parse(r.record) as GroupRecord);
    const revocations = this.db.prepare('SELECT id, expires_at, revoked_at FROM gov_revocations').all() as Revocation[];
    const counters = (this.db.prepare('SELECT holder, words FROM gov_counters').all() as Array<{ holder: string; words: string }>).map((r) => ({
      holder: r.holder,
      words: JSON.parse(r.words) as string[],
    }));
    return { keys: keys as KeyRecord[], groups, revocations, counters };
  }

  protected async writeKey(key: KeyRecord): Promise<void> {
    this.statements.putKey!.run(key.id, JSON.stringify(key));
  }

  protected async writeRevocation(revocation: Revocation): Promise<void> {
    this.revokeTx(revocation);
  }

  protected async writeGroup(group: GroupRecord): Promise<void> {
    this.statements.putGroup!.run(group.name, JSON.stringify(group));
  }

  protected async removeGroup(name: string): Promise<void> {
    this.removeGroupTx(name);
  }

  protected async addKeyUsageRows(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void> {
    this.addKeyAll(rows, batch);
  }

  protected async readKeyUsageDay(day: number): Promise<KeyUsageRow[]> {
    return this.statements.keySelectDay!.all(day) as KeyUsageRow[];
  }

  protected override summarizeKeyUsageDay(day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    return this.usageReads.summarize(day, prices, limit);
  }

  protected async writeCounters(rows: CounterRow[]): Promise<void> {
    this.countersTx(rows);
  }

  protected async closeStore(): Promise<void> {
    await this.usageReads.close();
    this.db.close();
  }

  // --- audit (admin plane) ---
  readonly durableAudit = true;
  async acquireAuditWriter(owner: string, pid: number, ttlMs: number): ReturnType<Store['acquireAuditWriter']> {
    return this.audit.acquire(owner, pid, ttlMs);
  }
  async releaseAuditWriter(owner: string): Promise<void> {
    this.audit.release(owner);
  }
  appendAudit(run: string, entry: Parameters<Store['appendAudit']>[1]): void {
    this.audit.append(run, entry);
  }
  async readAuditLog(): ReturnType<Store['readAuditLog']> {
    return this.audit.read();
  }
}
