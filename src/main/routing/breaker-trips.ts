// trip_count and last_trip_at survive a restart: main restores them from the store into the
// shared cells at boot (before any worker starts) and writes the changed ones back on the
// usage flush interval and at shutdown. A config apply keeps them without the store: cells are
// slots by name that are never reused (src/shared/sab/slot-registry.ts).
import type { CompiledConfig } from '../../shared/config/compiled.js';
import type { Logger } from '../../shared/log.js';
import type { SharedState, SlotRegistry } from '../../shared/sab/index.js';
import type { BreakerTripRow, Store } from '../store/store.js';

export class BreakerTripKeeper {
  /** What was last written per cell key, so a flush writes only what changed. */
  private readonly written = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly shared: SharedState,
    private readonly slots: SlotRegistry,
    /** The config in force (its pools and lanes name the cells to keep). */
    private readonly config: () => CompiledConfig,
    private readonly log: Logger,
  ) {}

  /** Boot: put every stored count back into its cell. */
  async restore(): Promise<number> {
    const rows = await this.store.loadBreakerTrips();
    for (const row of rows) {
      const cell = row.pool === '' ? this.slots.defaultCellSlot(row.lane) : this.slots.cellSlot(row.pool, row.lane);
      this.shared.breakers.setTripCount(cell, row.tripCount >>> 0);
      this.shared.breakers.setLastTripSec(cell, row.lastTripAt >>> 0);
      this.written.set(`${row.pool}\u0000${row.lane}`, `${row.tripCount}/${row.lastTripAt}`);
    }
    return rows.length;
  }

  startFlushing(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Write the cells whose trips changed since the last write. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const rows = this.changedRows();
      if (rows.length === 0) return;
      try {
        await this.store.saveBreakerTrips(rows);
        for (const row of rows) this.written.set(`${row.pool}\u0000${row.lane}`, `${row.tripCount}/${row.lastTripAt}`);
      } catch (err) {
        this.log.error({ err: (err as Error).message, rows: rows.length }, 'breaker trip flush failed; retrying on the next flush');
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private changedRows(): BreakerTripRow[] {
    const config = this.config();
    const rows: BreakerTripRow[] = [];
    const consider = (pool: string, lane: string, cell: number): void => {
      const tripCount = this.shared.breakers.tripCount(cell);
      if (tripCount === 0) return;
      const lastTripAt = this.shared.breakers.lastTripSec(cell);
      const key = `${pool}\u0000${lane}`;
      if (this.written.get(key) === `${tripCount}/${lastTripAt}`) return;
      rows.push({ pool, lane, tripCount, lastTripAt });
    };
    for (const lane of config.lanes) consider('', lane.name, lane.defaultCellSlot);
    for (const pool of config.pools) for (const m of pool.members) consider(pool.name, config.lanes[m.lane]!.name, m.cellSlot);
    return rows;
  }
}
