// The governance counters in shared memory are saved to the store on the flush interval and
// at shutdown, and restored at boot, so limits survive a restart: a crash loses at most one
// flush interval of counting. Only records that changed since the last save are written.
// The same flush writes the usage of the same requests (the usage ledger): the snapshot is a cut
// taken while no settle runs (src/shared/sab/settle-gate.ts), and the usage written with it is
// every row settled before the cut. The counters go in one atomic write together with a log of
// the usage batches the cut owes (holder `flush:<run>`); the usage follows, each batch under its
// id; a crash in between is finished at the next boot from that log (the store skips a batch it
// already has). So after a crash, the counters and GET /usage are of the same requests.
// On a store several nodes share, the same flush also reconciles the counters with the fleet
// (fleet-reconcile.ts).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { CounterRow } from '../store/records.js';
import type { UsageBatch } from '../usage/ledger.js';
import type { Store } from '../store/store.js';
import { hasFleetCounters } from '../store/fleet-counters.js';
import { FleetReconciler } from './fleet-reconcile.js';
import type { GovernanceService } from './service.js';

/** How long a cut waits for a settle in progress (settles take microseconds). */
const CUT_WAIT_MS = 100;
/** How long the flush waits for every worker to hand over the cut's usage (they look every 50 ms). */
const SEAL_WAIT_MS = 2_000;
const USAGE_LOG = 'flush:';

export class CounterSnapshots {
  /** This run's usage log row (see the top of the file), and whether the store holds one now. */
  private readonly logHolder = `${USAGE_LOG}${randomUUID()}`;
  private logWritten = false;
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
    this.saving = this.saving
      .then(() => this.flush())
      .catch((err: Error) => this.log.error({ err: err.message }, 'governance flush failed; retrying on the next flush'));
    return this.saving;
  }

  private async flush(): Promise<void> {
    const { shared, keySlots } = this.service;
    // Only keys a worker marked changed: a save of a million idle keys reads a million flags.
    const dirty: string[] = [];
    let rows: CounterRow[] = [];
    const closed = shared.settleGate.cut(CUT_WAIT_MS, () => {
      for (const [id, slot] of keySlots) if (shared.governance.takeKeyDirty(slot)) dirty.push(id);
      rows = this.changedRows(dirty);
    });
    if (closed < 0) {
      this.log.warn({ waitMs: CUT_WAIT_MS }, 'a settle outlasted the flush cut; counters and usage are saved at the next flush');
      return;
    }
    await this.fleet?.flush(dirty);
    const batches = await this.usageThrough(closed);
    const usageLog = this.usageLogRow(batches);
    const write = usageLog === null ? rows : [...rows, usageLog];
    if (write.length > 0) {
      try {
        await this.store.saveCounters(write);
        for (const row of rows) {
          if (row.words === null) this.saved.delete(row.holder);
          else this.saved.set(row.holder, row.words.join(','));
        }
        if (usageLog !== null) this.logWritten = usageLog.words !== null;
      } catch (err) {
        this.log.error({ err: (err as Error).message, rows: rows.length }, 'governance counters could not be saved; retrying on the next flush');
        for (const row of rows) {
          const slot = row.holder.startsWith('key:') ? this.service.keySlots.get(row.holder.slice(4)) : undefined;
          if (slot !== undefined) this.service.shared.governance.markKeyDirty(slot);
        }
        return;
      }
    }
    await this.service.ledger?.writeTaken();
  }

  /** The usage of the cut that closed epoch `closed`, once every worker has handed it over. */
  private async usageThrough(closed: number): Promise<readonly UsageBatch[]> {
    const ledger = this.service.ledger;
    if (ledger === null) return [];
    const deadline = Date.now() + SEAL_WAIT_MS;
    while (!ledger.sealedThrough(closed, this.service.workerIds())) {
      if (Date.now() > deadline) {
        this.log.warn({ waitMs: SEAL_WAIT_MS }, "a worker did not hand over the flush cut's usage in time; it is written with the next flush");
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    return [...ledger.takeThrough(closed)];
  }

  /** The log of usage batches written with the counters (null: nothing to write or delete). */
  private usageLogRow(batches: readonly UsageBatch[]): CounterRow | null {
    if (batches.length > 0) return { holder: this.logHolder, words: [JSON.stringify(batches)] };
    return this.logWritten ? { holder: this.logHolder, words: null } : null;
  }

  /**
   * At boot, before anything is counted: finish the usage writes a crashed run owed (its log
   * rows), then drop the logs. Each batch is skipped by the store if it was written already.
   */
  async finishUsageLogs(rows: readonly CounterRow[]): Promise<void> {
    const done: CounterRow[] = [];
    for (const row of rows) {
      if (!row.holder.startsWith(USAGE_LOG) || row.words === null) continue;
      let batches: UsageBatch[] = [];
      try {
        batches = JSON.parse(row.words[0] ?? '[]') as UsageBatch[];
      } catch {
        this.log.warn({ holder: row.holder }, 'an unreadable usage log was dropped');
      }
      for (const b of batches) {
        await this.store.addUsage(b.usage.rows, b.usage.batch);
        await this.store.addKeyUsage(b.keyUsage.rows, b.keyUsage.batch);
      }
      if (batches.length > 0) this.log.info({ batches: batches.length }, 'usage a previous run owed with its last counters was written');
      done.push({ holder: row.holder, words: null });
    }
    if (done.length > 0) await this.store.saveCounters(done);
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
