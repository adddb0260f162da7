import type { UsageRecord } from '../../shared/messages.js';
import type { GovernanceRecords, KeyRecord, GroupRecord, Revocation, KeyUsageRow, CounterRow } from './records.js';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { KeyUsageSummary } from '../usage/usage-summary.js';
import { summarizeKeyUsageRows } from '../usage/summarize-rows.js';
import { addUsageCounts } from '../usage/usage-counts.js';
import { Buffer } from 'node:buffer';
import type { StoredResponse } from '../../shared/responses/stored-response.js';

// The store: the durable truth the main thread writes to. It holds metered usage per UTC day
// (per pool/lane and per key/model), virtual keys (metadata, never a secret), groups, the
// revocation denylist and the governance counters snapshot. A base class does the shared
// chores; each module (memory, sqlite, postgres, valkey) fills in a few methods.
// Every method is async so that a networked store fits the same interface.

export type { KeyRecord, GroupRecord, Revocation, KeyUsageRow, CounterRow, GovernanceRecords } from './records.js';

/** Usage of one (UTC day, pool, lane, provider): the shape workers send and the store keeps. */
export type UsageRow = UsageRecord;

/**
 * The id of one flush: `stream` names the writer (node run id + what it flushes), `seq` grows
 * by one per batch of that stream. A stream sends its batches in order and retries a failed one
 * (same id) before the next, so the store keeps only the last applied seq per stream.
 */
export interface FlushBatch {
  stream: string;
  seq: number;
}

// --- audit (admin plane) ---
import type { AuditEntry, AuditWriterHolder, RunHead, StoredAuditEntry } from '../audit/store-records.js';
export type { AuditWriterHolder } from '../audit/store-records.js';

export abstract class Store {
  private closed = false;

  abstract readonly module: string;

  /**
   * Add the rows to the stored totals atomically: all of them or none. With `batch`, a batch
   * already applied (its stream's last applied seq >= batch.seq) is skipped in the same
   * transaction, so a flush retried after a lost COMMIT reply counts once.
   */
  async addUsage(rows: UsageRow[], batch?: FlushBatch): Promise<void> {
    this.assertOpen();
    if (rows.length > 0) await this.addUsageRows(rows, batch);
  }

  /** Stored totals for one UTC day. */
  async usageForDay(day: number): Promise<UsageRow[]> {
    this.assertOpen();
    return this.readUsageDay(day);
  }

  // --- governance (keys, groups, denylist, usage per key, counters) ---

  /** Everything governance restores at boot. */
  async loadGovernance(): Promise<GovernanceRecords> {
    this.assertOpen();
    return this.readGovernance();
  }

  /** Insert or replace a key; durable when the promise resolves. */
  async putKey(key: KeyRecord): Promise<void> {
    this.assertOpen();
    await this.writeKey(key);
  }

  /** Remove the key and put its id on the denylist, in one transaction. */
  async revokeKey(revocation: Revocation): Promise<void> {
    this.assertOpen();
    await this.writeRevocation(revocation);
  }

  async putGroup(group: GroupRecord): Promise<void> {
    this.assertOpen();
    await this.writeGroup(group);
  }

  async deleteGroup(name: string): Promise<void> {
    this.assertOpen();
    await this.removeGroup(name);
  }

  /** Add per-key usage to the stored totals atomically. */
  async addKeyUsage(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void> {
    this.assertOpen();
    if (rows.length > 0) await this.addKeyUsageRows(rows, batch);
  }

  async keyUsageForDay(day: number): Promise<KeyUsageRow[]> {
    this.assertOpen();
    return this.readKeyUsageDay(day);
  }

  /**
   * GET /usage's aggregation of one UTC day, priced with `prices`: per (model, provider), and the
   * top `limit` keys by spend (usage-summary.ts). The SQL stores aggregate in the database.
   */
  async keyUsageSummary(day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    this.assertOpen();
    return this.summarizeKeyUsageDay(day, prices, limit);
  }

  /** In process over the day's rows (memory, valkey); sqlite and postgres override it. */
  protected async summarizeKeyUsageDay(day: number, prices: readonly RateEntry[], limit: number): Promise<KeyUsageSummary> {
    return summarizeKeyUsageRows(await this.readKeyUsageDay(day), prices, limit);
  }

  /** Replace the saved counters of these holders (others are kept). */
  async saveCounters(rows: CounterRow[]): Promise<void> {
    this.assertOpen();
    if (rows.length > 0) await this.writeCounters(rows);
  }
  // --- breaker trips (routing) ---

  /** Replace the stored trip count and last trip of each (pool, lane) cell in `rows`, atomically. */
  async saveBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    this.assertOpen();
    if (rows.length > 0) await this.writeBreakerTrips(rows);
  }

  /** Every stored (pool, lane) cell's trip count and last trip. */
  async loadBreakerTrips(): Promise<BreakerTripRow[]> {
    this.assertOpen();
    return this.readBreakerTrips();
  }

  protected abstract writeBreakerTrips(rows: BreakerTripRow[]): Promise<void>;
  protected abstract readBreakerTrips(): Promise<BreakerTripRow[]>;

  // --- end breaker trips (routing) ---

  // --- responses state ---

  /**
   * Keep `record`, replacing the one with its id. First the expired records are dropped (as
   * many as one put meets: ResponseRow below), then, while the total is over `maxBytes`, the
   * oldest others. Resolves false, storing nothing, when the record alone is over `maxBytes`
   * (0 stores nothing).
   */
  async putResponse(record: StoredResponse, maxBytes: number, nowMs: number): Promise<boolean> {
    this.assertOpen();
    const row = responseRow(record);
    if (maxBytes <= 0 || row.bytes > maxBytes) return false;
    await this.responses.write(row, maxBytes, nowMs);
    return true;
  }

  /** The record `id` of `keyId`, or null: unknown, another key's, or expired at `nowMs`. */
  async getResponse(id: string, keyId: string, nowMs: number): Promise<StoredResponse | null> {
    this.assertOpen();
    const record = await this.responses.read(id);
    return record !== null && record.keyId === keyId && record.expiresAtMs > nowMs ? record : null;
  }

  /** Removes the record `id` when `keyId` created it; resolves whether one was removed. */
  async deleteResponse(id: string, keyId: string): Promise<boolean> {
    this.assertOpen();
    return this.responses.remove(id, keyId);
  }

  /** The module's table of stored responses: the checks above are the store's, the keeping is the table's. */
  protected abstract readonly responses: ResponseTable;

  // --- end responses state ---

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.closeStore();
  }

  protected abstract addUsageRows(rows: UsageRow[], batch?: FlushBatch): Promise<void>;
  protected abstract readUsageDay(day: number): Promise<UsageRow[]>;
  protected abstract readGovernance(): Promise<GovernanceRecords>;
  protected abstract writeKey(key: KeyRecord): Promise<void>;
  protected abstract writeRevocation(revocation: Revocation): Promise<void>;
  protected abstract writeGroup(group: GroupRecord): Promise<void>;
  protected abstract removeGroup(name: string): Promise<void>;
  protected abstract addKeyUsageRows(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void>;
  protected abstract readKeyUsageDay(day: number): Promise<KeyUsageRow[]>;
  protected abstract writeCounters(rows: CounterRow[]): Promise<void>;
  protected abstract closeStore(): Promise<void>;

  private assertOpen(): void {
    if (this.closed) throw new Error(`the ${this.module} store is closed`);
  }

  // --- audit (admin plane) ---
  /** Whether this store keeps a durable audit log (memory does not: it dies with the process). */
  abstract readonly durableAudit: boolean;

  /**
   * Take or renew the single durable-audit writer lease for `owner` (this process's run).
   * Resolves null when `owner` holds it now, or the live holder when another process does.
   */
  abstract acquireAuditWriter(owner: string, pid: number, ttlMs: number): Promise<AuditWriterHolder | null>;
  abstract releaseAuditWriter(owner: string): Promise<void>;
  /** Appends one entry of run `run` (synchronously where the module can, so none is lost at exit). */
  abstract appendAudit(run: string, entry: AuditEntry): void;
  /** The whole durable log in storage order, and each run's last written (seq, hash). */
  abstract readAuditLog(): Promise<{ rows: StoredAuditEntry[]; heads: RunHead[] }>;
  // --- end audit ---
}

// --- breaker trips (routing) ---

/** One breaker cell's durable part: `pool` '' is the lane-default cell. */
export interface BreakerTripRow {
  pool: string;
  lane: string;
  tripCount: number;
  /** Epoch seconds of the last trip; 0 = never. */
  lastTripAt: number;
}

// --- end breaker trips (routing) ---

// --- responses state ---

/**
 * A stored response as a module writes it: the record's JSON and what eviction needs beside it.
 * A put drops at most RESPONSE_EXPIRED_PER_PUT expired records (the work of one put is bounded;
 * an expired record is never answered meanwhile, and the size cap still counts it).
 */
export interface ResponseRow {
  id: string;
  keyId: string;
  createdAtMs: number;
  expiresAtMs: number;
  /** UTF-8 bytes of `json`: what the size cap counts. */
  bytes: number;
  json: string;
}

export const RESPONSE_EXPIRED_PER_PUT = 256;

/** Where a module keeps its stored responses (memory-responses.ts, sqlite-responses.ts, ...). */
export interface ResponseTable {
  /** Keeps `row` (replacing its id), dropping expired then oldest records as putResponse says. */
  write(row: ResponseRow, maxBytes: number, nowMs: number): void | Promise<void>;
  read(id: string): StoredResponse | null | Promise<StoredResponse | null>;
  /** Removes the record `id` when `keyId` created it; answers whether one was removed. */
  remove(id: string, keyId: string): boolean | Promise<boolean>;
}

export function responseRow(record: StoredResponse): ResponseRow {
  const json = JSON.stringify(record);
  return { id: record.id, keyId: record.keyId, createdAtMs: record.createdAtMs, expiresAtMs: record.expiresAtMs, bytes: Buffer.byteLength(json, 'utf8'), json };
}

// --- end responses state ---

export function usageKey(row: Pick<UsageRow, 'day' | 'pool' | 'lane' | 'provider'>): string {
  return `${row.day}\u0000${row.pool}\u0000${row.lane}\u0000${row.provider}`;
}

/** Adds `from`'s counts into `into` (same key). */
export function accumulateUsage(into: UsageRow, from: UsageRow): void {
  addUsageCounts(into, from);
  into.truncated += from.truncated;
}

export function keyUsageKey(row: Pick<KeyUsageRow, 'day' | 'keyId' | 'model' | 'provider'>): string {
  return `${row.day}\u0000${row.keyId}\u0000${row.model}\u0000${row.provider}`;
}

/** Adds `from`'s counts into `into` (same key): a key's row has no counts but the common ones. */
export const accumulateKeyUsage: (into: KeyUsageRow, from: KeyUsageRow) => void = addUsageCounts;
