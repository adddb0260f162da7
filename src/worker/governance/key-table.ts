// A worker's copy of the keys and groups main pushes (src/shared/governance/worker-state.ts):
// looked up by the token's `sub`, or by an AWS access key id, with each key's group chain
// resolved once per change rather than per request.
import type { GovernanceSnapshot, WorkerGroup, WorkerKey } from '../../shared/governance/worker-state.js';

/** A group chain deeper than this is cut (main refuses such chains on write). */
const CHAIN_DEPTH_MAX = 16;
const NO_CHAIN: readonly WorkerGroup[] = [];

export interface AdmissionKey {
  readonly key: WorkerKey;
  /** The bound group first, then its parents; rebuilt when any group changes. */
  chain: readonly WorkerGroup[];
  chainVersion: number;
}

export class KeyTable {
  private readonly keys = new Map<string, AdmissionKey>();
  private readonly byAwsAccessKey = new Map<string, AdmissionKey>();
  private readonly groups = new Map<string, WorkerGroup>();
  /** Bumped on every group change: chains built under an older version are rebuilt. */
  private groupsVersion = 0;
  /** One copy of each allowed_pools list and group name: a million keys share a handful. */
  private readonly poolLists = new Map<string, string[]>();
  private readonly names = new Map<string, string>();

  replace(state: GovernanceSnapshot): void {
    this.keys.clear();
    this.byAwsAccessKey.clear();
    this.groups.clear();
    for (const g of state.groups) this.groups.set(g.name, g);
    for (const k of state.keys) this.putKey(k);
    this.groupsVersion++;
  }

  update(keys: WorkerKey[], removeKeys: string[], groups: WorkerGroup[], removeGroups: string[]): void {
    for (const g of groups) this.groups.set(g.name, g);
    for (const name of removeGroups) this.groups.delete(name);
    if (groups.length > 0 || removeGroups.length > 0) this.groupsVersion++;
    for (const id of removeKeys) {
      const had = this.keys.get(id);
      this.keys.delete(id);
      if (had?.key.awsAccessKeyId) this.byAwsAccessKey.delete(had.key.awsAccessKeyId);
    }
    for (const k of keys) this.putKey(k);
  }

  /** The key by id with its chain current; undefined = unknown or revoked. */
  key(id: string): AdmissionKey | undefined {
    const entry = this.keys.get(id);
    if (entry !== undefined && entry.chainVersion !== this.groupsVersion) this.rebuildChain(entry);
    return entry;
  }

  byAwsKey(accessKeyId: string): AdmissionKey | undefined {
    const entry = this.byAwsAccessKey.get(accessKeyId);
    return entry === undefined ? undefined : this.key(entry.key.id);
  }

  get size(): number {
    return this.keys.size;
  }

  private putKey(k: WorkerKey): void {
    const old = this.keys.get(k.id);
    if (old?.key.awsAccessKeyId) this.byAwsAccessKey.delete(old.key.awsAccessKeyId);
    const poolsKey = k.pools.join('\u0000');
    const pools = this.poolLists.get(poolsKey);
    if (pools === undefined) this.poolLists.set(poolsKey, k.pools);
    else k.pools = pools;
    if (k.group !== null) {
      const name = this.names.get(k.group);
      if (name === undefined) this.names.set(k.group, k.group);
      else k.group = name;
    }
    const entry: AdmissionKey = { key: k, chain: NO_CHAIN, chainVersion: -1 };
    this.keys.set(k.id, entry);
    if (k.awsAccessKeyId !== null) this.byAwsAccessKey.set(k.awsAccessKeyId, entry);
  }

  private rebuildChain(entry: AdmissionKey): void {
    const chain: WorkerGroup[] = [];
    let at = entry.key.group;
    while (at !== null && chain.length < CHAIN_DEPTH_MAX) {
      const g = this.groups.get(at);
      if (g === undefined) break;
      chain.push(g);
      at = g.parent;
    }
    // A new array each time: a lease keeps the chain it was admitted under.
    entry.chain = chain;
    entry.chainVersion = this.groupsVersion;
  }
}
