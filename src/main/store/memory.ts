// The memory store: the default, ephemeral per instance (lost on exit).
import { Store, accumulateUsage, usageKey, type BreakerTripRow, type UsageRow } from './store.js';

export class MemoryStore extends Store {
  readonly module = 'memory';
  private readonly usage = new Map<string, UsageRow>();

  protected async addUsageRows(rows: UsageRow[]): Promise<void> {
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

  // --- breaker trips (routing) ---
  private readonly trips = new Map<string, BreakerTripRow>();

  protected async writeBreakerTrips(rows: BreakerTripRow[]): Promise<void> {
    for (const row of rows) this.trips.set(`${row.pool}\u0000${row.lane}`, { ...row });
  }

  protected async readBreakerTrips(): Promise<BreakerTripRow[]> {
    return [...this.trips.values()].map((r) => ({ ...r }));
  }
  // --- end breaker trips (routing) ---

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
