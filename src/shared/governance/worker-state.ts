// What the main thread tells every worker about keys and groups: only what admission needs,
// by key id (the token's `sub`) and group name, with the shared-memory slot of each record so a
// worker never asks main anything on the request path. Sent whole at boot (and to a restarted
// worker before its config) and as upserts/removals on every key or group mutation, which
// answers only after every worker acknowledged it.
import type { RateEntry } from './pricing.js';

/** Limit metrics as numbers (the order of GroupLimit['metric']). */
export const METRIC_REQUESTS = 0;
export const METRIC_TOKENS = 1;
export const METRIC_BUDGET = 2;
export const METRIC_CONCURRENT = 3;
export const METRIC_NAMES: readonly string[] = ['requests', 'tokens', 'budget', 'concurrent'];

export interface WorkerLimit {
  metric: number;
  /** A window kind of src/shared/governance/windows.ts (ignored for `concurrent`). */
  window: number;
  max: number;
  /** The window's tokens are ledgered per lane at settle by this limit: true on the first
   * `budget` or `tokens` limit of its window only, so a window with both counts them once (the
   * budget prices them; `gateway_bucket_tokens` splits them by model). */
  laneTokens: boolean;
}

/** Marks the first budget or tokens limit of each window as the one that ledgers lane tokens. */
export function markLaneTokenLimits(limits: WorkerLimit[]): WorkerLimit[] {
  const seen = new Set<number>();
  for (const l of limits) {
    l.laneTokens = (l.metric === METRIC_BUDGET || l.metric === METRIC_TOKENS) && !seen.has(l.window);
    if (l.laneTokens) seen.add(l.window);
  }
  return limits;
}

export interface WorkerGroup {
  name: string;
  parent: string | null;
  enabled: boolean;
  feeMicros: number;
  rateCard: RateEntry[];
  limits: WorkerLimit[];
  /** Output tokens reserved for a request with no cap whose lane sets none; -1 = not set here. */
  defaultOutput: number;
  /** Shared-memory record of the group (SlotRegistry.groupSlot). */
  slot: number;
}

export interface WorkerKey {
  id: string;
  /** The current secret's jti; a secret with another one (rotated away) is refused. */
  jti: string;
  enabled: boolean;
  group: string | null;
  /** Allowed pool names; `*` allows every pool. */
  pools: string[];
  /** -1 = uncapped. */
  rpm: number;
  tpm: number;
  budgetMicros: number;
  /** Window kind of the key's budget_period. */
  budgetWindow: number;
  /** Shared-memory record of the key (SlotRegistry.allocateKeySlot). */
  slot: number;
  awsAccessKeyId: string | null;
}

/**
 * Every key, by columns: a million keys travel as a few typed arrays and two string arrays
 * (fast to encode, decode and hold) instead of a million objects; a worker makes a key's
 * WorkerKey the first time a request needs it. Row i of every column is key i.
 */
export interface KeyColumns {
  count: number;
  ids: string[];
  jtis: string[];
  /** 1 = enabled. */
  enabled: Uint8Array;
  /** Index into groupNames, -1 = no group. */
  group: Int32Array;
  groupNames: string[];
  /** Index into poolLists. */
  pools: Int32Array;
  poolLists: string[][];
  rpm: Int32Array;
  tpm: Int32Array;
  /** -1 = uncapped. */
  budgetMicros: Float64Array;
  budgetWindow: Uint8Array;
  slot: Int32Array;
  /** Only the keys with an AWS credential: [row, access key id]. */
  aws: Array<[number, string]>;
}

/** Whether limits apply (governance.enabled) travels in the compiled config. */
export interface GovernanceSnapshot {
  keys: KeyColumns;
  groups: WorkerGroup[];
}

type TypedCtor<T> = { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number };

/** msgpack carries a typed array as its bytes: copy them into an aligned array of the type. */
function revive<T>(value: unknown, Ctor: TypedCtor<T>): T {
  const bytes = value as Uint8Array;
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return new Ctor(copy);
}

function bytesOf(a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * The columns ready for a message: msgpackr writes a typed array as one byte per element, so
 * each typed column is handed over as a view of its bytes (reviveColumns undoes it).
 */
export function packColumns(c: KeyColumns): KeyColumns {
  const asBytes = <T>(a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }): T => bytesOf(a) as unknown as T;
  return {
    ...c,
    enabled: asBytes(c.enabled),
    group: asBytes(c.group),
    pools: asBytes(c.pools),
    rpm: asBytes(c.rpm),
    tpm: asBytes(c.tpm),
    budgetMicros: asBytes(c.budgetMicros),
    budgetWindow: asBytes(c.budgetWindow),
    slot: asBytes(c.slot),
  };
}

/** The columns as a worker decoded them, with typed arrays restored (worker side). */
export function reviveColumns(c: KeyColumns): KeyColumns {
  return {
    ...c,
    enabled: revive(c.enabled, Uint8Array),
    group: revive(c.group, Int32Array),
    pools: revive(c.pools, Int32Array),
    rpm: revive(c.rpm, Int32Array),
    tpm: revive(c.tpm, Int32Array),
    budgetMicros: revive(c.budgetMicros, Float64Array),
    budgetWindow: revive(c.budgetWindow, Uint8Array),
    slot: revive(c.slot, Int32Array),
  };
}

/** Key `row` of the columns as the object admission uses. */
export function keyAt(c: KeyColumns, row: number, awsAccessKeyId: string | null): WorkerKey {
  const group = c.group[row]!;
  return {
    id: c.ids[row]!,
    jti: c.jtis[row]!,
    enabled: c.enabled[row] === 1,
    group: group < 0 ? null : c.groupNames[group]!,
    pools: c.poolLists[c.pools[row]!]!,
    rpm: c.rpm[row]!,
    tpm: c.tpm[row]!,
    budgetMicros: c.budgetMicros[row]!,
    budgetWindow: c.budgetWindow[row]!,
    slot: c.slot[row]!,
    awsAccessKeyId,
  };
}

/** Builds the columns from the keys (main thread). */
export function keyColumns(keys: Iterable<WorkerKey>, count: number): KeyColumns {
  const c: KeyColumns = {
    count,
    ids: new Array<string>(count),
    jtis: new Array<string>(count),
    enabled: new Uint8Array(count),
    group: new Int32Array(count),
    groupNames: [],
    pools: new Int32Array(count),
    poolLists: [],
    rpm: new Int32Array(count),
    tpm: new Int32Array(count),
    budgetMicros: new Float64Array(count),
    budgetWindow: new Uint8Array(count),
    slot: new Int32Array(count),
    aws: [],
  };
  const groupIndex = new Map<string, number>();
  const poolIndex = new Map<string, number>();
  let row = 0;
  for (const k of keys) {
    c.ids[row] = k.id;
    c.jtis[row] = k.jti;
    c.enabled[row] = k.enabled ? 1 : 0;
    if (k.group === null) c.group[row] = -1;
    else {
      let g = groupIndex.get(k.group);
      if (g === undefined) {
        g = c.groupNames.push(k.group) - 1;
        groupIndex.set(k.group, g);
      }
      c.group[row] = g;
    }
    const poolsKey = k.pools.join('\u0000');
    let p = poolIndex.get(poolsKey);
    if (p === undefined) {
      p = c.poolLists.push(k.pools) - 1;
      poolIndex.set(poolsKey, p);
    }
    c.pools[row] = p;
    c.rpm[row] = k.rpm;
    c.tpm[row] = k.tpm;
    c.budgetMicros[row] = k.budgetMicros;
    c.budgetWindow[row] = k.budgetWindow;
    c.slot[row] = k.slot;
    if (k.awsAccessKeyId !== null) c.aws.push([row, k.awsAccessKeyId]);
    row++;
  }
  return c;
}
