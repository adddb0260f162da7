// A worker's copy of the keys and groups main pushes (src/shared/governance/worker-state.ts):
// looked up by the token's `sub`, or by an AWS access key id. The whole state arrives by
// columns (a million keys are a few typed arrays); a key's object is made the first time a
// request needs it, and keys changed since arrive as objects. Each key's group chain is
// resolved once per group change rather than per request.
import { chainPrices, groupPrice, type Price } from './price.js';
import {
  METRIC_BUDGET,
  METRIC_TOKENS,
  keyAt,
  reviveColumns,
  type GovernanceSnapshot,
  type KeyColumns,
  type WorkerGroup,
  type WorkerKey,
} from '../../shared/governance/worker-state.js';

/** A group chain deeper than this is cut (main refuses such chains on write). */
const CHAIN_DEPTH_MAX = 16;
const NO_CHAIN: readonly WorkerGroup[] = [];
const NO_PRICES: readonly Price[] = [];
const EMPTY_COLUMNS: KeyColumns = {
  count: 0,
  ids: [],
  jtis: [],
  enabled: new Uint8Array(0),
  group: new Int32Array(0),
  groupNames: [],
  pools: new Int32Array(0),
  poolLists: [],
  rpm: new Int32Array(0),
  tpm: new Int32Array(0),
  budgetMicros: new Float64Array(0),
  budgetWindow: new Uint8Array(0),
  slot: new Int32Array(0),
  aws: [],
};

export interface AdmissionKey {
  readonly key: WorkerKey;
  /** The bound group first, then its parents; rebuilt when any group changes. */
  chain: readonly WorkerGroup[];
  /** The price of each chain group's budget ([0] also prices the key's), rebuilt with it. */
  prices: readonly Price[];
  /** Reservations an admission makes: one per tokens or budget limit of the chain, plus the
   * key's tpm_limit and max_budget_cents when set (0: no estimate is needed at all). */
  reservations: number;
  /** The nearest default_output_reservation up the chain (0 when none sets one). */
  defaultOutput: number;
  chainVersion: number;
}

export class KeyTable {
  /** The last whole state, and each key's row in it. */
  private columns: KeyColumns = EMPTY_COLUMNS;
  private readonly rows = new Map<string, number>();
  private readonly awsRows = new Map<string, number>();
  private readonly awsOfRow = new Map<number, string>();
  /** Keys made from the columns, or pushed since (a pushed key replaces its row). */
  private readonly keys = new Map<string, AdmissionKey>();
  private readonly byAwsAccessKey = new Map<string, AdmissionKey>();
  private readonly groups = new Map<string, WorkerGroup>();
  /** Bumped on every group change: chains built under an older version are rebuilt. */
  private groupsVersion = 0;
  /** One copy of each allowed_pools list and group name among pushed keys. */
  private readonly poolLists = new Map<string, string[]>();
  private readonly names = new Map<string, string>();

  replace(state: GovernanceSnapshot): void {
    this.keys.clear();
    this.byAwsAccessKey.clear();
    this.rows.clear();
    this.awsRows.clear();
    this.awsOfRow.clear();
    this.groups.clear();
    for (const g of state.groups) this.groups.set(g.name, g);
    const c = reviveColumns(state.keys);
    this.columns = c;
    for (let row = 0; row < c.count; row++) this.rows.set(c.ids[row]!, row);
    for (const [row, accessKeyId] of c.aws) {
      this.awsRows.set(accessKeyId, row);
      this.awsOfRow.set(row, accessKeyId);
    }
    this.groupsVersion++;
  }

  update(keys: WorkerKey[], removeKeys: string[], groups: WorkerGroup[], removeGroups: string[]): void {
    for (const g of groups) this.groups.set(g.name, g);
    for (const name of removeGroups) this.groups.delete(name);
    if (groups.length > 0 || removeGroups.length > 0) this.groupsVersion++;
    for (const id of removeKeys) this.dropKey(id);
    for (const k of keys) {
      this.dropKey(k.id);
      this.putKey(k);
    }
  }

  /** The key by id with its chain current; undefined = unknown or revoked. */
  key(id: string): AdmissionKey | undefined {
    const entry = this.entryOf(this.keys, this.rows, id);
    if (entry === undefined) return undefined;
    if (entry.chainVersion !== this.groupsVersion) this.rebuildChain(entry);
    return entry;
  }

  byAwsKey(accessKeyId: string): AdmissionKey | undefined {
    const entry = this.entryOf(this.byAwsAccessKey, this.awsRows, accessKeyId);
    return entry === undefined ? undefined : this.key(entry.key.id);
  }

  /** The entry made for `name`, else made now from its row; undefined when it has none. */
  private entryOf(made: Map<string, AdmissionKey>, rows: Map<string, number>, name: string): AdmissionKey | undefined {
    const entry = made.get(name);
    if (entry !== undefined) return entry;
    const row = rows.get(name);
    return row === undefined ? undefined : this.fromRow(row);
  }

  /** Every key's id, group, shared record and budget window, without making its object
   * (the /metrics key gauges read a million keys this way). */
  forEachKey(visit: (id: string, group: string | null, slot: number, budgetWindow: number) => void): void {
    const c = this.columns;
    for (const [id, row] of this.rows) {
      const pushed = this.keys.get(id)?.key;
      if (pushed !== undefined) visit(id, pushed.group, pushed.slot, pushed.budgetWindow);
      else visit(id, c.group[row]! < 0 ? null : c.groupNames[c.group[row]!]!, c.slot[row]!, c.budgetWindow[row]!);
    }
    for (const [id, entry] of this.keys) if (!this.rows.has(id)) visit(id, entry.key.group, entry.key.slot, entry.key.budgetWindow);
  }

  /** The price of group `name`'s budget (a key's: of its bound group), for the spend gauges. */
  priceOfGroup(name: string | null): Price {
    return groupPrice(this.groups, name);
  }

  /** Every group main pushed. */
  allGroups(): IterableIterator<WorkerGroup> {
    return this.groups.values();
  }

  get size(): number {
    let n = this.rows.size;
    for (const id of this.keys.keys()) if (!this.rows.has(id)) n++;
    return n;
  }

  private fromRow(row: number): AdmissionKey {
    const c = this.columns;
    const aws = this.awsOfRow.get(row) ?? null;
    const entry: AdmissionKey = { key: keyAt(c, row, aws), chain: NO_CHAIN, prices: NO_PRICES, reservations: 0, defaultOutput: 0, chainVersion: -1 };
    this.keys.set(entry.key.id, entry);
    if (aws !== null) this.byAwsAccessKey.set(aws, entry);
    return entry;
  }

  private dropKey(id: string): void {
    const had = this.keys.get(id);
    this.keys.delete(id);
    if (had?.key.awsAccessKeyId) this.byAwsAccessKey.delete(had.key.awsAccessKeyId);
    const row = this.rows.get(id);
    if (row !== undefined) {
      this.rows.delete(id);
      const accessKeyId = this.awsOfRow.get(row);
      if (accessKeyId !== undefined) {
        this.awsOfRow.delete(row);
        this.awsRows.delete(accessKeyId);
      }
    }
  }

  private putKey(k: WorkerKey): void {
    const poolsKey = k.pools.join('\u0000');
    const pools = this.poolLists.get(poolsKey);
    if (pools === undefined) this.poolLists.set(poolsKey, k.pools);
    else k.pools = pools;
    if (k.group !== null) {
      const name = this.names.get(k.group);
      if (name === undefined) this.names.set(k.group, k.group);
      else k.group = name;
    }
    const entry: AdmissionKey = { key: k, chain: NO_CHAIN, prices: NO_PRICES, reservations: 0, defaultOutput: 0, chainVersion: -1 };
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
    entry.chain = chain.length === 0 ? NO_CHAIN : chain;
    entry.prices = chain.length === 0 ? NO_PRICES : chainPrices(chain);
    let reservations = (entry.key.tpm >= 0 ? 1 : 0) + (entry.key.budgetMicros >= 0 ? 1 : 0);
    let defaultOutput = -1;
    for (const g of chain) {
      for (const l of g.limits) if (l.metric === METRIC_TOKENS || l.metric === METRIC_BUDGET) reservations++;
      if (defaultOutput < 0 && g.defaultOutput >= 0) defaultOutput = g.defaultOutput;
    }
    entry.reservations = reservations;
    entry.defaultOutput = Math.max(0, defaultOutput);
    entry.chainVersion = this.groupsVersion;
  }
}
