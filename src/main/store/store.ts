import type { UsageRecord } from '../../shared/messages.js';

// The store: the durable truth the main thread flushes to. This part of the gateway holds
// metered usage per UTC day; keys, groups, the revocation denylist and the audit sink join it
// as those parts land. A base class does the shared chores; each module fills in a few methods.

/** Usage of one (UTC day, pool, lane, provider): the shape workers send and the store keeps. */
export type UsageRow = UsageRecord;

// --- audit (admin plane) ---
import type { AuditEntry, AuditWriterHolder, RunHead, StoredAuditEntry } from '../audit/store-records.js';
export type { AuditWriterHolder } from '../audit/store-records.js';

export abstract class Store {
  private closed = false;

  abstract readonly module: string;

  /** Add the rows to the stored totals atomically: all of them or none. */
  async addUsage(rows: UsageRow[]): Promise<void> {
    this.assertOpen();
    if (rows.length > 0) await this.addUsageRows(rows);
  }

  /** Stored totals for one UTC day. */
  async usageForDay(day: number): Promise<UsageRow[]> {
    this.assertOpen();
    return this.readUsageDay(day);
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.closeStore();
  }

  protected abstract addUsageRows(rows: UsageRow[]): Promise<void>;
  protected abstract readUsageDay(day: number): Promise<UsageRow[]>;
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

export function usageKey(row: Pick<UsageRow, 'day' | 'pool' | 'lane' | 'provider'>): string {
  return `${row.day}\u0000${row.pool}\u0000${row.lane}\u0000${row.provider}`;
}

/** Adds `from`'s counts into `into` (same key). */
export function accumulateUsage(into: UsageRow, from: UsageRow): void {
  into.tokensInput += from.tokensInput;
  into.tokensOutput += from.tokensOutput;
  into.tokensCacheRead += from.tokensCacheRead;
  into.tokensCacheCreation += from.tokensCacheCreation;
  into.requests += from.requests;
  into.truncated += from.truncated;
}

