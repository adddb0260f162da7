// The postgres store (pg): one store shared by several gateway nodes. A pool of connections,
// named (prepared) statements, the schema from numbered migrations applied at first use under
// an advisory lock. Every multi-row write is one statement or one transaction: a flush lands
// whole or not at all. Counts are BIGINT and read back as numbers (exact below 2^53).
import pg from 'pg';
import { hostname } from 'node:os';
import { Store, accumulateKeyUsage, accumulateUsage, keyUsageKey, usageKey, type BreakerTripRow, type FlushBatch, type UsageRow } from './store.js';
import type { CounterDelta, FleetCount, FleetCounters, FleetReconcile } from './fleet-counters.js';
import type { CounterRow, GovernanceRecords, GroupRecord, KeyRecord, KeyUsageRow, Revocation } from './records.js';
import type { AuditEntry, AuditWriterHolder, RunHead, StoredAuditEntry } from '../audit/store-records.js';
import { migrate } from './postgres-schema.js';
import { holderAlive } from './sqlite-audit.js';
import type { ConnectionOptions } from 'node:tls';
import type { ChangeFeed, SharedConfig } from './peer-sync.js';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { summaryOf, usageSummarySql } from './usage-summary-sql.js';
import { type OperationGuard, boundedOperation } from './postgres-deadline.js';
import { StoreUnavailableError, isPostgresUnavailable } from './store-unavailable.js';
import { PostgresResponses } from './postgres-responses.js';

/** One channel for every schema; the payload names the schema, so nodes of other deployments ignore it. */
const CHANGES_CHANNEL = 'gateway_changes';
// The change version moves in the same transaction as the change (a poller that reads it
// unchanged skips the full re-read); the notification is delivered at commit.
const NOTIFY = `WITH v AS (UPDATE gov_version SET version = version + 1 RETURNING 1) SELECT pg_notify('${CHANGES_CHANNEL}', current_schema()) FROM v`;

export interface PostgresSettings {
  /** A libpq URL (`postgres://user@host:5432/db`); the password may come separately. */
  url: string;
  password?: string;
  /** The schema the tables live in (created when missing). */
  schema: string;
  poolMax: number;
  connectTimeoutMs: number;
  /** Each statement's ceiling, so an admin call on a stalled store answers instead of hanging. */
  statementTimeoutMs: number;
  tls?: ConnectionOptions | undefined;
}

const BIGINT_OID = 20;
const NUMERIC_TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === BIGINT_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** What an upsert adds to a stored row (alias u) of either usage table (usage-counts.ts). */
const ADD_USAGE_COUNTS = `
  tokens_input = u.tokens_input + excluded.tokens_input,
  tokens_output = u.tokens_output + excluded.tokens_output,
  tokens_cache_read = u.tokens_cache_read + excluded.tokens_cache_read,
  tokens_cache_creation = u.tokens_cache_creation + excluded.tokens_cache_creation,
  requests = u.requests + excluded.requests`;

const USAGE_UPSERT = `
INSERT INTO usage_daily AS u (day, pool, lane, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests, truncated)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
ON CONFLICT (day, pool, lane, provider) DO UPDATE SET${ADD_USAGE_COUNTS},
  truncated = u.truncated + excluded.truncated`;

// A flush batch is recorded unless it (or a later one of its stream) was: no row = applied before.
const TAKE_BATCH = `
INSERT INTO flush_batches AS b (stream, seq) VALUES ($1, $2)
ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, applied_at = now() WHERE b.seq < excluded.seq
RETURNING 1`;

/** `sql` (an INSERT ... SELECT ... FROM unnest) run only when batch ($n, $n+1) is new: one statement, so one commit. */
function once(sql: string, n: number): string {
  const cte = TAKE_BATCH.replace('$1', () => `$${n}`).replace('$2', () => `$${n + 1}`);
  return `WITH batch AS (${cte})\n${sql.replace(/\)\nON CONFLICT/, ') WHERE EXISTS (SELECT 1 FROM batch)\nON CONFLICT')}`;
}

// Adds each delta under its tag: same window adds (never below 0), a newer window starts over,
// an older one is dropped. Rows are taken in key order so two nodes never lock in opposite orders.
const FLEET_ADD = `
INSERT INTO fleet_counters AS f (holder, value, tag, count, last_delta, changed)
SELECT h, v, t, greatest(d, 0), d, nextval('fleet_change')
FROM (SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int8[]) AS x(h, v, t, d) ORDER BY h, v) AS sorted
ON CONFLICT (holder, value) DO UPDATE SET
  count = CASE WHEN f.tag = excluded.tag THEN greatest(f.count + excluded.last_delta, 0)
               WHEN ((excluded.tag - f.tag) & 65535) BETWEEN 1 AND 32767 THEN excluded.count
               ELSE f.count END,
  tag = CASE WHEN ((excluded.tag - f.tag) & 65535) BETWEEN 1 AND 32767 THEN excluded.tag ELSE f.tag END,
  last_delta = excluded.last_delta,
  changed = excluded.changed`;

const FLEET_CHANGED = 'SELECT holder, value, tag, count, changed FROM fleet_counters WHERE changed > $1 ORDER BY changed';

/** A revoked key's or deleted group's saved counters and fleet counts go with it. */
function forgetHolder(holder: string): pg.QueryConfig[] {
  return [
    { name: 'gov-delete-counters', text: 'DELETE FROM gov_counters WHERE holder = $1', values: [holder] },
    { name: 'fleet-delete-holder', text: 'DELETE FROM fleet_counters WHERE holder = $1 OR starts_with(holder, $1 || chr(1))', values: [holder] },
  ];
}

/** Reconciles take this lock for their transaction: change numbers are then in commit order. */
const FLEET_LOCK = `SELECT pg_advisory_xact_lock(hashtext('gateway-fleet:' || current_schema()))`;

const USAGE_SELECT_DAY = `
SELECT day, pool, lane, provider, tokens_input AS "tokensInput", tokens_output AS "tokensOutput",
  tokens_cache_read AS "tokensCacheRead", tokens_cache_creation AS "tokensCacheCreation", requests, truncated
FROM usage_daily WHERE day = $1 ORDER BY pool, lane, provider`;

const KEY_USAGE_UPSERT = `
INSERT INTO usage_key_daily AS u (day, key_id, model, provider, tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, requests)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
ON CONFLICT (day, key_id, model, provider) DO UPDATE SET${ADD_USAGE_COUNTS}`;

/** How a flush writes the rows of one usage table: rows summed by key, then one unnest upsert of these columns (in its parameters' order). */
interface UsageUpsert<Row> {
  keyOf(row: Row): string;
  add(into: Row, from: Row): void;
  columns: readonly (keyof Row)[];
  name: string;
  sql: string;
  /** The same, run only when the flush batch is new (its stream and seq follow the columns). */
  onceName: string;
  onceSql: string;
}

const USAGE_ROWS: UsageUpsert<UsageRow> = {
  keyOf: usageKey,
  add: accumulateUsage,
  columns: ['day', 'pool', 'lane', 'provider', 'tokensInput', 'tokensOutput', 'tokensCacheRead', 'tokensCacheCreation', 'requests', 'truncated'],
  name: 'usage-upsert',
  sql: USAGE_UPSERT,
  onceName: 'usage-upsert-once',
  onceSql: once(USAGE_UPSERT, 11),
};

const KEY_USAGE_ROWS: UsageUpsert<KeyUsageRow> = {
  keyOf: keyUsageKey,
  add: accumulateKeyUsage,
  columns: ['day', 'keyId', 'model', 'provider', 'tokensInput', 'tokensOutput', 'tokensCacheRead', 'tokensCacheCreation', 'requests'],
  name: 'key-usage-upsert',
  sql: KEY_USAGE_UPSERT,
  onceName: 'key-usage-upsert-once',
  onceSql: once(KEY_USAGE_UPSERT, 10),
};

const KEY_USAGE_SELECT_DAY = `
SELECT day, key_id AS "keyId", model, provider, tokens_input AS "tokensInput", tokens_output AS "tokensOutput",
  tokens_cache_read AS "tokensCacheRead", tokens_cache_creation AS "tokensCacheCreation", requests
FROM usage_key_daily WHERE day = $1 ORDER BY key_id, model, provider`;

// Takes the lease when free, expired or ours; answers the row as it stands after, so a row
// owned by someone else says who holds it. The store's clock decides expiry: nodes' clocks may differ.
const LEASE_ACQUIRE = `
INSERT INTO audit_writer AS w (id, owner, pid, host, expires_at_ms)
VALUES (1, $1, $2, $3, (extract(epoch FROM clock_timestamp()) * 1000)::int8 + $4)
ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host, expires_at_ms = excluded.expires_at_ms
  WHERE w.owner = excluded.owner OR w.expires_at_ms < (extract(epoch FROM clock_timestamp()) * 1000)::int8 OR w.owner = $5
RETURNING owner`;

function ignore(): void {}

export class PostgresStore extends Store implements ChangeFeed, FleetCounters {
  readonly module = 'postgres';
  readonly durableAudit = true;
  private readonly pool: pg.Pool;
  private ready: Promise<void> | null = null;
  /** Audit appends, in call order: appendAudit is synchronous in the interface, the write is not. */
  private auditChain: Promise<void> = Promise.resolve();
  /** Appends the store refused (the durable sink logs what it can see; this counts the rest). */
  auditWriteFailures = 0;

  constructor(readonly settings: PostgresSettings) {
    super();
    this.pool = new pg.Pool({
      connectionString: settings.url,
      ...(settings.password !== undefined ? { password: settings.password } : {}),
      max: settings.poolMax,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      statement_timeout: settings.statementTimeoutMs,
      query_timeout: settings.statementTimeoutMs + 1_000,
      options: `-c search_path=${settings.schema}`,
      types: NUMERIC_TYPES,
      ...(settings.tls !== undefined ? { ssl: settings.tls } : {}),
    });
    // An idle client whose server went away emits here; without a listener the process dies.
    this.pool.on('error', () => undefined);
  }

  /** The schema is migrated before the first statement; a failed attempt is retried next call. */
  private init(): Promise<void> {
    if (this.ready === null) {
      this.ready = (async () => {
        const client = await this.pool.connect();
        // A checked-out client's socket error is emitted on it: unhandled, it would end the process.
        client.on('error', ignore);
        let failed: Error | undefined;
        try {
          await migrate(client, this.settings.schema);
          // Streams are one per node run: those not written for a month are gone for good.
          await client.query(`DELETE FROM flush_batches WHERE applied_at < now() - interval '30 days'`);
        } catch (err) {
          failed = err as Error;
          throw err;
        } finally {
          client.off('error', ignore);
          client.release(failed);
        }
      })().catch((err: Error) => {
        this.ready = null;
        throw isPostgresUnavailable(err) ? new StoreUnavailableError('postgres', err) : err;
      });
    }
    return this.ready;
  }

  /** One store operation, bounded as a whole (postgres-deadline.ts). */
  private bounded<T>(work: (guard: OperationGuard) => Promise<T>): Promise<T> {
    return boundedOperation(Math.max(this.settings.connectTimeoutMs, this.settings.statementTimeoutMs), work);
  }

  /** A pooled client for `guard`'s operation; released (destroyed) at once if the operation already timed out. */
  private async checkout(guard: OperationGuard): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    if (!guard.hold(client)) {
      client.release(new Error('the operation timed out'));
      throw new StoreUnavailableError('postgres', new Error('the operation timed out'));
    }
    return client;
  }

  private async query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[] = []): Promise<R[]> {
    try {
      return await this.bounded(async (guard) => {
        await this.init();
        const client = await this.checkout(guard);
        client.on('error', ignore);
        let broken: Error | undefined;
        try {
          return (await client.query<R>({ name, text, values })).rows;
        } catch (err) {
          if (isPostgresUnavailable(err) || guard.expired) broken = err as Error;
          throw err;
        } finally {
          client.off('error', ignore);
          client.release(broken);
        }
      });
    } catch (err) {
      throw this.classify(err);
    }
  }

  private classify(err: unknown): Error {
    return isPostgresUnavailable(err) && !(err instanceof StoreUnavailableError) ? new StoreUnavailableError('postgres', err as Error) : (err as Error);
  }

  private async transaction(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    try {
      await this.bounded((guard) => this.runTransaction(work, guard));
    } catch (err) {
      throw this.classify(err);
    }
  }

  private async runTransaction(work: (client: pg.PoolClient) => Promise<void>, guard: OperationGuard): Promise<void> {
    await this.init();
    const client = await this.checkout(guard);
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (err) {
      // A connection-level failure (or the deadline) discards the client instead of handing it
      // to the next caller, and sends no ROLLBACK: on a dead connection it would only wait out
      // another timeout, and closing the connection rolls the transaction back anyway.
      if (isPostgresUnavailable(err) || guard.expired) broken = err as Error;
      else await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', ignore);
      client.release(broken);
    }
  }

  // --- usage ---

  protected async addUsageRows(rows: UsageRow[], batch?: FlushBatch): Promise<void> {
    await this.upsertUsage(USAGE_ROWS, rows, batch);
  }

  protected async readUsageDay(day: number): Promise<UsageRow[]> {
    return this.query<UsageRow>('usage-select-day', USAGE_SELECT_DAY, [day]);
  }

  protected async addKeyUsageRows(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void> {
    await this.upsertUsage(KEY_USAGE_ROWS, rows, batch);
  }

  /** One statement per flush; rows repeating a key are summed first (ON CONFLICT touches a row once). */
  private async upsertUsage<Row extends object>(table: UsageUpsert<Row>, rows: Row[], batch: FlushBatch | undefined): Promise<void> {
    const merged = new Map<string, Row>();
    for (const row of rows) {
      const have = merged.get(table.keyOf(row));
      if (have === undefined) merged.set(table.keyOf(row), { ...row });
      else table.add(have, row);
    }
    const m = [...merged.values()];
    const values: unknown[] = table.columns.map((column) => m.map((r) => r[column]));
    if (batch === undefined) await this.query(table.name, table.sql, values);
    else await this.query(table.onceName, table.onceSql, [...values, batch.stream, batch.seq]);
  }

  protected async readKeyUsageDay(day: number): Promise<KeyUsageRow[]> {
    return this.query<KeyUsageRow>('key-usage-select-day', KEY_USAGE_SELECT_DAY, [day]);
  }

  // --- fleet counters (several nodes) ---

  async reconcileCounters(batch: FlushBatch, deltas: CounterDelta[], since: number): Promise<FleetReconcile> {
    let applied = false;
    let rows: FleetCount[] = [];
    await this.transaction(async (c) => {
      await c.query({ name: 'fleet-lock', text: FLEET_LOCK });
      applied = ((await c.query({ name: 'take-batch', text: TAKE_BATCH, values: [batch.stream, batch.seq] })).rowCount ?? 0) > 0;
      if (applied && deltas.length > 0) {
        await c.query({
          name: 'fleet-add',
          text: FLEET_ADD,
          values: [deltas.map((d) => d.holder), deltas.map((d) => d.value), deltas.map((d) => d.tag), deltas.map((d) => d.delta)],
        });
      }
      rows = (await c.query<FleetCount>({ name: 'fleet-changed', text: FLEET_CHANGED, values: [since] })).rows;
    });
    const last = rows.length > 0 ? rows[rows.length - 1]!.changed : since;
    return { applied, rows, last };
  }

  protected override async summarizeKeyUsageDay(day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    const sql = usageSummarySql(prices, 'postgres');
    // One snapshot for both statements: the total and the top keys see the same rows.
    let out: KeyUsageSummary | null = null;
    await this.transaction(async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const byModel = await c.query<unknown[]>({ text: sql.byModel, values: [...sql.params, day], rowMode: 'array' });
      const top = await c.query<unknown[]>({ text: sql.topKeys, values: [...sql.params, day, limit + 1], rowMode: 'array' });
      out = summaryOf(byModel.rows, top.rows, limit);
    });
    return out!;
  }

  // --- governance ---

  protected async readGovernance(): Promise<GovernanceRecords> {
    const [keys, groups, revocations, counters] = await Promise.all([
      this.query<{ record: KeyRecord }>('gov-keys', 'SELECT record FROM gov_keys ORDER BY id'),
      this.query<{ record: GroupRecord }>('gov-groups', 'SELECT record FROM gov_groups ORDER BY name'),
      this.query<Revocation>('gov-revocations', 'SELECT id, expires_at, revoked_at FROM gov_revocations ORDER BY id'),
      this.query<CounterRow>('gov-counters', 'SELECT holder, words FROM gov_counters ORDER BY holder'),
    ]);
    return { keys: keys.map((r) => r.record), groups: groups.map((r) => r.record), revocations, counters };
  }

  protected async writeKey(key: KeyRecord): Promise<void> {
    await this.changeGovernance([
      {
        name: 'gov-put-key',
        text: 'INSERT INTO gov_keys (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
        values: [key.id, JSON.stringify(key)],
      },
    ]);
  }

  protected async writeRevocation(r: Revocation): Promise<void> {
    await this.changeGovernance([
      { name: 'gov-delete-key', text: 'DELETE FROM gov_keys WHERE id = $1', values: [r.id] },
      ...forgetHolder(`key:${r.id}`),
      {
        name: 'gov-put-revocation',
        text: 'INSERT INTO gov_revocations (id, expires_at, revoked_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at, revoked_at = excluded.revoked_at',
        values: [r.id, r.expires_at, r.revoked_at],
      },
    ]);
  }

  protected async writeGroup(group: GroupRecord): Promise<void> {
    await this.changeGovernance([
      {
        name: 'gov-put-group',
        text: 'INSERT INTO gov_groups (name, record) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET record = excluded.record',
        values: [group.name, JSON.stringify(group)],
      },
    ]);
  }

  protected async removeGroup(name: string): Promise<void> {
    await this.changeGovernance([
      { name: 'gov-delete-group', text: 'DELETE FROM gov_groups WHERE name = $1', values: [name] },
      ...forgetHolder(`group:${name}`),
    ]);
  }

  /** The statements of one governance change, then the change notification, in one transaction (delivered at its commit). */
  private async changeGovernance(statements: readonly pg.QueryConfig[]): Promise<void> {
    await this.transaction(async (c) => {
      for (const statement of statements) await c.query(statement);
      await c.query({ name: 'gov-notify', text: NOTIFY });
    });
  }

  protected async writeCounters(rows: CounterRow[]): Promise<void> {
    await this.transaction(async (c) => {
      const drop = rows.filter((r) => r.words === null).map((r) => r.holder);
      const put = rows.filter((r) => r.words !== null);
      if (drop.length > 0) await c.query({ name: 'gov-drop-counters', text: 'DELETE FROM gov_counters WHERE holder = ANY($1::text[])', values: [drop] });
      if (put.length > 0) {
        await c.query({
          name: 'gov-put-counters',
          text: `INSERT INTO gov_counters (holder, words) SELECT h, w::jsonb FROM unnest($1::text[], $2::text[]) AS t(h, w)
                 ON CONFLICT (holder) DO UPDATE SET words = excluded.words`,
          values: [put.map((r) => r.holder), put.map((r) => JSON.stringify(r.words))],
        });
      }
    });
  }

  // --- breaker trips ---

  protected async writeBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    await this.query(
      'trips-upsert',
      `INSERT INTO breaker_trips (pool, lane, trip_count, last_trip_at) SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[])
       ON CONFLICT (pool, lane) DO UPDATE SET trip_count = excluded.trip_count, last_trip_at = excluded.last_trip_at`,
      [rows.map((r) => r.pool), rows.map((r) => r.lane), rows.map((r) => r.tripCount), rows.map((r) => r.lastTripAt)],
    );
  }

  protected async readBreakerTrips(): Promise<BreakerTripRow[]> {
    return this.query<BreakerTripRow>(
      'trips-select',
      'SELECT pool, lane, trip_count AS "tripCount", last_trip_at AS "lastTripAt" FROM breaker_trips ORDER BY pool, lane',
    );
  }

  // --- responses state ---
  protected readonly responses = new PostgresResponses(
    (name, text, values) => this.query(name, text, values),
    (work) => this.transaction(work),
  );

  // --- audit ---

  async acquireAuditWriter(owner: string, pid: number, ttlMs: number): Promise<AuditWriterHolder | null> {
    const take = async (steal: string): Promise<boolean> =>
      (await this.query<{ owner: string }>('audit-lease', LEASE_ACQUIRE, [owner, pid, hostname(), ttlMs, steal])).length > 0;
    if (await take('')) return null;
    const [holder] = await this.query<AuditWriterHolder>('audit-lease-holder', 'SELECT owner, pid, host FROM audit_writer WHERE id = 1');
    if (holder === undefined) return (await take('')) ? null : { owner: '?', pid: 0, host: '?' };
    // A holder on this host whose pid is gone crashed: its lease is taken at once.
    if (!holderAlive(holder) && (await take(holder.owner))) return null;
    return holder;
  }

  async releaseAuditWriter(owner: string): Promise<void> {
    await this.auditChain;
    await this.query('audit-release', 'DELETE FROM audit_writer WHERE id = 1 AND owner = $1', [owner]);
  }

  appendAudit(run: string, e: AuditEntry): void {
    this.auditChain = this.auditChain
      .then(() =>
        this.transaction(async (c) => {
          await c.query({
            name: 'audit-insert',
            text: 'INSERT INTO audit_log (run, seq, ts, action, resource, outcome, principal, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
            values: [run, e.seq, e.ts, e.action, e.resource, e.outcome, e.principal, e.prev_hash, e.hash],
          });
          await c.query({
            name: 'audit-head',
            text: 'INSERT INTO audit_runs (run, last_seq, last_hash) VALUES ($1, $2, $3) ON CONFLICT (run) DO UPDATE SET last_seq = excluded.last_seq, last_hash = excluded.last_hash',
            values: [run, e.seq, e.hash],
          });
        }),
      )
      .catch(() => {
        this.auditWriteFailures++;
      });
  }

  async readAuditLog(): Promise<{ rows: StoredAuditEntry[]; heads: RunHead[] }> {
    await this.auditChain;
    const rows = await this.query<StoredAuditEntry>(
      'audit-read',
      'SELECT id AS position, run, seq, ts, action, resource, outcome, principal, prev_hash, hash FROM audit_log ORDER BY id',
    );
    const heads = await this.query<RunHead>('audit-heads', 'SELECT run, last_seq AS seq, last_hash AS hash FROM audit_runs');
    return { rows, heads };
  }

  // --- change feed (several nodes) ---

  async changeVersion(): Promise<number> {
    const [row] = await this.query<{ version: number }>('gov-version', 'SELECT version FROM gov_version WHERE id = 1');
    return row?.version ?? 0;
  }

  async publishConfig(origin: string, document: unknown): Promise<number> {
    let seq = 0;
    await this.transaction(async (c) => {
      const r = await c.query<{ seq: number }>({
        name: 'config-publish',
        text: `INSERT INTO shared_config AS s (id, seq, origin, document) VALUES (1, 1, $1, $2)
               ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1, origin = excluded.origin, document = excluded.document RETURNING seq`,
        values: [origin, JSON.stringify(document)],
      });
      seq = r.rows[0]!.seq;
      await c.query({ name: 'gov-notify', text: NOTIFY });
    });
    return seq;
  }

  async readConfig(): Promise<SharedConfig | null> {
    const [row] = await this.query<SharedConfig>('config-read', 'SELECT seq, origin, document FROM shared_config WHERE id = 1');
    return row ?? null;
  }

  /** LISTEN on a connection of its own, re-established with backoff when the server goes away. */
  async watchChanges(onChange: () => void): Promise<() => Promise<void>> {
    await this.init();
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    const connect = async (attempt: number): Promise<void> => {
      const c = new pg.Client({
        connectionString: this.settings.url,
        ...(this.settings.password !== undefined ? { password: this.settings.password } : {}),
        connectionTimeoutMillis: this.settings.connectTimeoutMs,
        ...(this.settings.tls !== undefined ? { ssl: this.settings.tls } : {}),
      });
      const reconnect = (): void => {
        if (stopped || client !== c) return;
        client = null;
        c.end().catch(() => undefined);
        retry = setTimeout(() => void connect(attempt + 1).catch(() => undefined), Math.min(100 * 2 ** Math.min(attempt, 5), 2_000));
        retry.unref();
      };
      client = c;
      c.on('error', reconnect);
      c.on('end', reconnect);
      c.on('notification', (n) => {
        if (n.payload === this.settings.schema) onChange();
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANGES_CHANNEL}`);
        // What changed while this node was not listening is picked up now.
        if (attempt > 0) onChange();
      } catch (err) {
        reconnect();
        if (attempt === 0) throw err;
      }
    };
    await connect(0);
    return async () => {
      stopped = true;
      if (retry !== null) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  }

  protected async closeStore(): Promise<void> {
    await this.auditChain;
    await this.pool.end();
  }
}
