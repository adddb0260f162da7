// Several nodes on one shared store: what an admin call changes on one node (a mint, a PATCH,
// a DELETE = revocation, a group change) reaches the others. Each node's main thread re-reads
// the governance records when the store announces a change (postgres LISTEN/NOTIFY, valkey
// pub/sub), and on a polling interval as the fallback, then pushes the difference to its
// workers like a local mutation. Bound: under ~1 s with notifications (one read + one push),
// under the poll interval without them. A poll first reads the store's change version (moved
// in the same transaction as every change): unchanged, nothing is re-read, so an idle fleet
// with 100k keys does not re-read 100k keys every poll. Config applies ride the same feed
// (config-share.ts).
import type { Logger } from '../../shared/log.js';
import type { GovernanceService } from '../governance/service.js';
import type { Store } from './store.js';
import type { GroupRecord, KeyRecord } from './records.js';
import type { ConfigShare } from './config-share.js';

/** The config one node applied, for the others. */
export interface SharedConfig {
  seq: number;
  origin: string;
  document: unknown;
}

/** A store that can tell the other nodes that governance records (or the shared config) changed. */
export interface ChangeFeed {
  /** Calls `onChange` on every announced change until the returned stop is called. */
  watchChanges(onChange: () => void): Promise<() => Promise<void>>;
  /** Moves with every announced change, in the same transaction. */
  changeVersion(): Promise<number>;
  /** Stores `document` as the shared config (next seq) and announces it; answers the seq. */
  publishConfig(origin: string, document: unknown): Promise<number>;
  readConfig(): Promise<SharedConfig | null>;
}

export function hasChangeFeed(store: Store): store is Store & ChangeFeed {
  return typeof (store as Partial<ChangeFeed>).watchChanges === 'function';
}

export class PeerSync {
  private timer: NodeJS.Timeout | null = null;
  private stopFeed: (() => Promise<void>) | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private againForced = false;
  private stopped = false;
  /** The change version of the last complete sync (-1: none yet). */
  private version = -1;
  /** Syncs that failed (the store unreachable): the node keeps serving what it holds. */
  failures = 0;
  lastSyncAtMs = 0;

  constructor(
    private readonly store: Store,
    private readonly gov: GovernanceService,
    private readonly log: Logger,
    readonly pollIntervalMs: number,
    private readonly config: ConfigShare | null = null,
  ) {}

  /** The change version read before boot loaded the records: the first poll re-reads only if it moved since. */
  loadedAt(version: number): void {
    this.version = version;
  }

  async start(): Promise<void> {
    await this.config?.start();
    if (hasChangeFeed(this.store)) {
      try {
        this.stopFeed = await this.store.watchChanges(() => this.trigger(true));
      } catch (err) {
        this.log.warn(
          { err: (err as Error).message, poll_interval_ms: this.pollIntervalMs },
          'store: change notifications unavailable; peers are picked up by polling only',
        );
      }
    }
    this.timer = setInterval(() => this.trigger(false), this.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.config?.stop();
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.stopFeed?.().catch(() => undefined);
    await this.running;
  }

  /** One sync at a time; a trigger during a sync runs one more after it. `force`: a notification (re-read whatever the version says). */
  trigger(force = true): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.again = true;
      this.againForced ||= force;
      return;
    }
    this.running = this.syncOnce(force)
      .catch((err: Error) => {
        this.failures++;
        this.log.warn({ err: err.message, failures: this.failures }, 'store: peer sync failed; serving the keys and groups this node holds');
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          const forced = this.againForced;
          this.again = false;
          this.againForced = false;
          this.trigger(forced);
        }
      });
  }

  /** Reads the store's records and applies the difference to this node (unless the version says nothing changed). */
  async syncOnce(force = true): Promise<void> {
    // Read before the records: a change committed after this read moves it again, so the next poll sees it.
    const version = hasChangeFeed(this.store) ? await this.store.changeVersion() : -1;
    if (!force && version !== -1 && version === this.version) {
      this.lastSyncAtMs = Date.now();
      return;
    }
    await this.syncGovernance();
    await this.config?.sync();
    this.version = version;
    this.lastSyncAtMs = Date.now();
  }

  private async syncGovernance(): Promise<void> {
    const records = await this.store.loadGovernance();
    const gov = this.gov;
    const nowSec = Math.floor(Date.now() / 1000);
    const upKeys: string[] = [];
    const removeKeys: string[] = [];
    const upGroups: string[] = [];
    const removeGroups: string[] = [];

    for (const r of records.revocations) if (r.expires_at > nowSec && !gov.revocations.has(r.id)) gov.revocations.set(r.id, r);
    for (const g of records.groups) {
      if (!sameRecord(gov.groups.get(g.name), g)) {
        gov.groups.set(g.name, g);
        gov.registry.groupSlot(g.name);
        upGroups.push(g.name);
      }
    }
    const storedKeys = new Set<string>();
    for (const k of records.keys) {
      if (gov.revocations.has(k.id)) continue;
      storedKeys.add(k.id);
      if (sameRecord(gov.keys.get(k.id), k)) continue;
      if (!gov.keySlots.has(k.id)) gov.keySlots.set(k.id, gov.registry.allocateKeySlot());
      gov.keys.set(k.id, k);
      upKeys.push(k.id);
    }
    for (const id of gov.keys.keys()) if (!storedKeys.has(id)) removeKeys.push(id);
    const storedGroups = new Set(records.groups.map((g) => g.name));
    for (const name of gov.groups.keys()) if (!storedGroups.has(name)) removeGroups.push(name);
    for (const id of removeKeys) gov.keys.delete(id);
    for (const name of removeGroups) gov.groups.delete(name);

    if (upKeys.length + removeKeys.length + upGroups.length + removeGroups.length > 0) {
      await gov.push({ keys: upKeys, removeKeys, groups: upGroups, removeGroups });
      // Every worker has dropped the removed keys: their records can serve the next key.
      for (const id of removeKeys) {
        const slot = gov.keySlots.get(id);
        gov.keySlots.delete(id);
        gov.snapshots.forget(`key:${id}`);
        if (slot !== undefined) gov.registry.releaseKeySlot(slot);
      }
      for (const name of removeGroups) gov.snapshots.forget(`group:${name}`);
      this.log.info(
        { keys: upKeys.length, removed_keys: removeKeys.length, groups: upGroups.length, removed_groups: removeGroups.length },
        'store: applied changes made on another node',
      );
    }
  }
}

function sameRecord(a: KeyRecord | GroupRecord | undefined, b: KeyRecord | GroupRecord): boolean {
  return a !== undefined && canonical(a) === canonical(b);
}

/** JSON with sorted object keys: a jsonb column hands the keys back in its own order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
