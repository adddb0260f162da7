// The memory store: the default, ephemeral per instance (lost on exit).
import { Store, accumulateKeyUsage, accumulateUsage, keyUsageKey, usageKey, type BreakerTripRow, type FlushBatch, type UsageRow } from './store.js';
import type { CounterRow, GovernanceRecords, GroupRecord, KeyRecord, KeyUsageRow, Revocation } from './records.js';
import { MemoryResponses } from './memory-responses.js';

export class MemoryStore extends Store {
  readonly module = 'memory';
  private readonly usage = new Map<string, UsageRow>();
  private readonly keyUsage = new Map<string, KeyUsageRow>();
  private readonly keys = new Map<string, KeyRecord>();
  private readonly groups = new Map<string, GroupRecord>();
  private readonly revocations = new Map<string, Revocation>();
  private readonly counters = new Map<string, string[]>();
  /** The last applied seq of each flush stream (a batch at or below it is skipped). */
  private readonly applied = new Map<string, number>();

  /** True when the batch is new (and records it); false when it was applied before. */
  private take(batch: FlushBatch | undefined): boolean {
    if (batch === undefined) return true;
    if ((this.applied.get(batch.stream) ?? -1) >= batch.seq) return false;
    this.applied.set(batch.stream, batch.seq);
    return true;
  }

  protected async addUsageRows(rows: UsageRow[], batch?: FlushBatch): Promise<void> {
    if (!this.take(batch)) return;
    for (const row of rows) {
      const key = usageKey(row);
      const have = this.usage.get(key);
      if (have === undefined) {
        this.usage.set(key, { ...row });
        continue;
      }
      accumulateUsage(have, row);
    }
  }

  protected async readUsageDay(day: number): Promise<UsageRow[]> {
    return [...this.usage.values()].filter((r) => r.day === day).map((r) => ({ ...r }));
  }

  // --- governance ---

  protected async readGovernance(): Promise<GovernanceRecords> {
    return {
      keys: [...this.keys.values()].map((k) => structuredClone(k)),
      groups: [...this.groups.values()].map((g) => structuredClone(g)),
      revocations: [...this.revocations.values()].map((r) => ({ ...r })),
      counters: [...this.counters].map(([holder, words]) => ({ holder, words: [...words] })),
    };
  }

  protected async writeKey(key: KeyRecord): Promise<void> {
    this.keys.set(key.id, structuredClone(key));
  }

  protected async writeRevocation(revocation: Revocation): Promise<void> {
    this.keys.delete(revocation.id);
    this.counters.delete(`key:${revocation.id}`);
    this.revocations.set(revocation.id, { ...revocation });
  }

  protected async writeGroup(group: GroupRecord): Promise<void> {
    this.groups.set(group.name, structuredClone(group));
  }

  protected async removeGroup(name: string): Promise<void> {
    this.groups.delete(name);
    this.counters.delete(`group:${name}`);
  }

  protected async addKeyUsageRows(rows: KeyUsageRow[], batch?: FlushBatch): Promise<void> {
    if (!this.take(batch)) return;
    for (const row of rows) {
      const key = keyUsageKey(row);
      const have = this.keyUsage.get(key);
      if (have === undefined) this.keyUsage.set(key, { ...row });
      else accumulateKeyUsage(have, row);
    }
  }

  protected async readKeyUsageDay(day: number): Promise<KeyUsageRow[]> {
    return [...this.keyUsage.values()].filter((r) => r.day === day).map((r) => ({ ...r }));
  }

  protected async writeCounters(rows: CounterRow[]): Promise<void> {
    for (const row of rows) {
      if (row.words === null) this.counters.delete(row.holder);
      else this.counters.set(row.holder, [...row.words]);
    }
  }
  // --- breaker trips (routing) ---
  private readonly trips = new Map<string, BreakerTripRow>();

  protected async writeBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    for (const row of rows) this.trips.set(`${row.pool}\u0000${row.lane}`, { ...row });
  }

  protected async readBreakerTrips(): Promise<BreakerTripRow[]> {
    return [...this.trips.values()].map((r) => ({ ...r }));
  }
  // --- end breaker trips (routing) ---

  // --- responses state ---
  protected readonly responses = new MemoryResponses();
  // --- end responses state ---

  protected async closeStore(): Promise<void> {}

  // --- audit (admin plane) ---
  // Nothing durable: the ring of the one process that owns this store is the whole log.
  readonly durableAudit = false;
  async acquireAuditWriter(): Promise<null> {
    return null;
  }
  async releaseAuditWriter(): Promise<void> {}
  appendAudit(): void {}
  async readAuditLog(): Promise<{ rows: never[]; heads: never[] }> {
    return { rows: [], heads: [] };
  }
}
