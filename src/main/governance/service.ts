// Governance on the main thread: the live keys and groups (loaded from the store at boot, kept
// in step with it on every admin mutation), the shared-memory record of each, and the copy
// every worker admits with. A mutation is written durably first, then pushed to every worker,
// and answers only once every worker acknowledged, so the next request anywhere sees it.
import type { Logger } from '../../shared/log.js';
import type { SharedState, SlotRegistry } from '../../shared/sab/index.js';
import { keyColumns, packColumns, type GovernanceSnapshot, type WorkerGroup, type WorkerKey } from '../../shared/governance/worker-state.js';
import type { ConfigState } from '../config-state.js';
import type { WorkerPool } from '../workers.js';
import type { Store } from '../store/store.js';
import type { GroupRecord, KeyRecord, Revocation } from '../store/records.js';
import { KeySigner } from './signing.js';
import { emptyWorkerKey, fillWorkerKey, workerGroup, workerKey } from './worker-records.js';
import { CounterSnapshots } from './counter-snapshots.js';
import { KeyLifecycle } from './keys.js';
import { GroupDirectory } from './groups.js';
import type { UsageLedger } from '../usage/ledger.js';

export class GovernanceService {
  readonly keys = new Map<string, KeyRecord>();
  readonly groups = new Map<string, GroupRecord>();
  readonly revocations = new Map<string, Revocation>();
  readonly keySlots = new Map<string, number>();
  readonly signer: KeySigner | null;
  readonly snapshots: CounterSnapshots;
  readonly lifecycle: KeyLifecycle;
  readonly directory: GroupDirectory;
  /** Set at boot: per-key usage not yet flushed joins the stored rows in usage reads. */
  ledger: UsageLedger | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly store: Store,
    readonly registry: SlotRegistry,
    readonly shared: SharedState,
    readonly config: ConfigState,
    readonly log: Logger,
    private workers: WorkerPool | null = null,
  ) {
    let signer: KeySigner | null = null;
    try {
      signer = KeySigner.fromPem(config.loaded.secrets.get('auth.signing_key'));
    } catch (err) {
      log.error({ err: (err as Error).message }, 'auth.signing_key is unusable: keys cannot be minted or verified');
    }
    this.signer = signer;
    this.snapshots = new CounterSnapshots(this, store, log);
    this.lifecycle = new KeyLifecycle(this);
    this.directory = new GroupDirectory(this);
  }

  /** Load keys, groups, the denylist and the counters from the store (before workers start). */
  async load(): Promise<void> {
    const records = await this.store.loadGovernance();
    const nowSec = Math.floor(Date.now() / 1000);
    for (const r of records.revocations) if (r.expires_at > nowSec) this.revocations.set(r.id, r);
    for (const g of records.groups) {
      this.groups.set(g.name, g);
      this.registry.groupSlot(g.name);
    }
    for (const k of records.keys) {
      if (this.revocations.has(k.id)) continue;
      this.keys.set(k.id, k);
      this.keySlots.set(k.id, this.registry.allocateKeySlot());
    }
    this.snapshots.restore(records.counters);
    await this.snapshots.finishUsageLogs(records.counters);
    // Several nodes: the other nodes' spend is in the counters before this node admits anything.
    await this.snapshots.fleet?.flush([]);
    this.log.info({ keys: this.keys.size, groups: this.groups.size, revoked: this.revocations.size }, 'governance state loaded from the store');
  }

  attachWorkers(workers: WorkerPool): void {
    this.workers = workers;
    workers.setGovernanceState((seq) => ({ t: 'gov-state', seq, state: this.snapshot() }));
  }

  /** The workers running now (each hands over its usage at every flush cut). */
  workerIds(): number[] {
    return this.workers?.liveIds() ?? [];
  }

  enabled(): boolean {
    return this.config.compiled.governance.enabled;
  }

  /** The whole state as workers hold it. */
  snapshot(): GovernanceSnapshot {
    const keys = packColumns(keyColumns(this.workerKeys(), this.keys.size));
    const groups: WorkerGroup[] = [];
    for (const group of this.groups.values()) groups.push(workerGroup(group, this.registry.groupSlot(group.name)));
    return { keys, groups };
  }

  /** One object refilled per key (keyColumns copies what it keeps): a million keys at boot
   * would otherwise be a million objects and pool-list copies made only to be dropped. */
  private *workerKeys(): Generator<WorkerKey> {
    const out = emptyWorkerKey();
    for (const [id, key] of this.keys) yield fillWorkerKey(out, key, this.keySlots.get(id)!);
  }

  /** Send the whole state again (after a config apply may have changed governance.enabled). */
  async resync(): Promise<void> {
    if (this.workers === null) return;
    await this.workers.governance((seq) => ({ t: 'gov-state', seq, state: this.snapshot() }));
  }

  /** Push changed keys/groups to every worker; resolves when all acknowledged. */
  async push(change: { keys?: string[]; removeKeys?: string[]; groups?: string[]; removeGroups?: string[] }): Promise<void> {
    if (this.workers === null) return;
    const keys = (change.keys ?? []).map((id) => workerKey(this.keys.get(id)!, this.keySlots.get(id)!));
    const groups = (change.groups ?? []).map((name) => workerGroup(this.groups.get(name)!, this.registry.groupSlot(name)));
    await this.workers.governance((seq) => ({
      t: 'gov-update',
      seq,
      keys,
      removeKeys: change.removeKeys ?? [],
      groups,
      removeGroups: change.removeGroups ?? [],
    }));
  }

  /**
   * Drop the revocations whose key has expired by now: its token fails its own expiry check, so
   * the entry guards nothing (load() skips them the same way at boot). Without this a node that
   * runs for months holds every key it ever revoked. Their counters go too (already gone from
   * the store with the revocation; this forgets what the fleet reconciliation may still wait on).
   */
  pruneRevocations(nowSec: number): number {
    let dropped = 0;
    for (const [id, revocation] of this.revocations) {
      if (revocation.expires_at > nowSec) continue;
      this.revocations.delete(id);
      this.snapshots.forget(`key:${id}`);
      dropped++;
    }
    return dropped;
  }

  /** Prune expired revocations every `everyMs` (unref'd: it never keeps the process up). */
  startRevocationPrune(everyMs: number): void {
    this.pruneTimer = setInterval(() => {
      const dropped = this.pruneRevocations(Math.floor(Date.now() / 1000));
      if (dropped > 0) this.log.info({ dropped, revoked: this.revocations.size }, 'expired revocations dropped');
    }, everyMs);
    this.pruneTimer.unref();
  }

  stopRevocationPrune(): void {
    if (this.pruneTimer !== null) clearInterval(this.pruneTimer);
    this.pruneTimer = null;
  }

  /** Empty every worker's verified-key cache; the number of entries dropped. */
  async flushAuthCaches(): Promise<number> {
    if (this.workers === null) return 0;
    return this.workers.governance((seq) => ({ t: 'auth-cache-flush', seq }));
  }

  /** The group chain from `name` up through its parents (bounded; cycles are refused on write). */
  chainOf(name: string | null): GroupRecord[] {
    const chain: GroupRecord[] = [];
    let at = name;
    while (at !== null && chain.length < 32) {
      const g = this.groups.get(at);
      if (g === undefined) break;
      chain.push(g);
      at = g.parent;
    }
    return chain;
  }
}
