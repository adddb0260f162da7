// The governance counters in shared memory are saved to the store on the flush interval and
// at shutdown, and restored at boot, so limits survive a restart: a crash loses at most one
// flush interval of counting. Only records that changed since the last save are written.
// On a store several nodes share, the same flush first reconciles the counters with the fleet
// (fleet-reconcile.ts).
import type { Logger } from '../../shared/log.js';
import type { CounterRow } from '../store/records.js';
import type { Store } from '../store/store.js';
import { hasFleetCounters } from '../store/fleet-counters.js';
import { FleetReconciler } from './fleet-reconcile.js';
import type { GovernanceService } from './service.js';

export class CounterSnapshots {
  /** What was last saved per holder (`key:<id>`, `group:<name>`), joined, to skip unchanged. */
  private readonly saved = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** Set on a store several nodes share. */
  readonly fleet: FleetReconciler | null;

  constructor(
    private readonly service: GovernanceService,
    private readonly store: Store,
    private readonly log: Logger,
  ) {
    this.fleet = hasFleetCounters(store) ? new FleetReconciler(service, store, log) : null;
  }

  restore(rows: CounterRow[]): void {
    const { shared, registry, keySlots, groups } = this.service;
    let stale = 0;
    for (const row of rows) {
      if (row.words === null) continue;
      const colon = row.holder.indexOf(':');
      const kind = row.holder.slice(0, colon);
      const name = row.holder.slice(colon + 1);
      if (kind === 'key') {
        const slot = keySlots.get(name);
        if (slot === undefined) continue;
        if (!shared.governance.restore(slot, false, row.words)) {
          stale++;
          continue;
        }
        shared.governance.takeKeyDirty(slot);
      } else if (kind === 'group' && groups.has(name)) {
        if (!shared.governance.restore(registry.groupSlot(name), true, row.words)) {
          stale++;
          continue;
        }
      } else {
        continue;
      }
      this.saved.set(row.holder, row.words.join(','));
    }
    // Another layout's words cannot be placed: those windows restart from zero.
    if (stale > 0) this.log.warn({ rows: stale }, 'governance counters saved by another record layout were not restored (their windows restart at zero)');
    this.fleet?.baseline(this.saved.keys());
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.save(), intervalMs);
    this.timer.unref();
  }

  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const { shared, keySlots } = this.service;
      // Only keys a worker marked changed: a save of a million idle keys reads a million flags.
      const dirty: string[] = [];
      for (const [id, slot] of keySlots) if (shared.governance.takeKeyDirty(slot)) dirty.push(id);
      await this.fleet?.flush(dirty);
      const rows = this.changedRows(dirty);
      if (rows.length === 0) return;
      try {
        await this.store.saveCounters(rows);
        for (const row of rows) {
          if (row.words === null) this.saved.delete(row.holder);
          else this.saved.set(row.holder, row.words.join(','));
        }
      } catch (err) {
        this.log.error({ err: (err as Error).message, rows: rows.length }, 'governance counters could not be saved; retrying on the next flush');
        for (const row of rows) {
          const slot = row.holder.startsWith('key:') ? this.service.keySlots.get(row.holder.slice(4)) : undefined;
          if (slot !== undefined) this.service.shared.governance.markKeyDirty(slot);
        }
      }
    });
    return this.saving;
  }

  /** A deleted key's saved counters go with it (the store drops them in the same write). */
  forget(holder: string): void {
    this.saved.delete(holder);
    this.fleet?.forget(holder);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.save();
  }

  private changedRows(dirty: readonly string[]): CounterRow[] {
    const { shared, registry, keySlots, groups } = this.service;
    const rows: CounterRow[] = [];
    const consider = (holder: string, words: string[] | null): void => {
      const joined = words === null ? null : words.join(',');
      const before = this.saved.get(holder);
      if (joined === null ? before === undefined : joined === before) return;
      rows.push({ holder, words });
    };
    for (const id of dirty) {
      const slot = keySlots.get(id);
      if (slot !== undefined) consider(`key:${id}`, shared.governance.snapshot(slot, false));
    }
    for (const name of groups.keys()) consider(`group:${name}`, shared.governance.snapshot(registry.groupSlot(name), true));
    return rows;
  }
}
