// The sqlite store (better-sqlite3, WAL): the embedded durable default. One transaction per
// flush, so a crash leaves either the whole flush or none of it.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Store, type BreakerTripRow, type UsageRow } from './store.js';
import { SqliteAudit } from './sqlite-audit.js';

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
);`;

const UPSERT = `
INSERT INTO usage_daily (day, pool, lane, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests, truncated)
VALUES (@day, @pool, @lane, @provider, @tokensInput, @tokensOutput, @tokensCacheRead, @tokensCacheCreation, @requests, @truncated)
ON CONFLICT (day, pool, lane, provider) DO UPDATE SET
  tokens_input = tokens_input + excluded.tokens_input,
  tokens_output = tokens_output + excluded.tokens_output,
  tokens_cache_read = tokens_cache_read + excluded.tokens_cache_read,
  tokens_cache_creation = tokens_cache_creation + excluded.tokens_cache_creation,
  requests = requests + excluded.requests,
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
  private readonly addAll: (rows: UsageRow[]) => void;
  private readonly audit: SqliteAudit;

  constructor(path: string) {
    super();
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.upsert = this.db.prepare(UPSERT);
    this.selectDay = this.db.prepare(SELECT_DAY);
    this.addAll = this.db.transaction((rows: UsageRow[]) => {
      for (const row of rows) this.upsert.run(row);
    });
    this.audit = new SqliteAudit(this.db);
    // --- breaker trips (routing) ---
    this.db.exec(TRIPS_SCHEMA);
    const tripsUpsert = this.db.prepare(TRIPS_UPSERT);
    this.tripsSelect = this.db.prepare(TRIPS_SELECT);
    this.saveTrips = this.db.transaction((rows: BreakerTripRow[]) => {
      for (const row of rows) tripsUpsert.run(row);
    });
  }

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

  protected async addUsageRows(rows: UsageRow[]): Promise<void> {
    this.addAll(rows);
  }

  protected async readUsageDay(day: number): Promise<UsageRow[]> {
    return this.selectDay.all(day) as UsageRow[];
  }

  protected async closeStore(): Promise<void> {
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
