// Budgets across nodes on a shared store (postgres, valkey). Each node admits against its own
// shared-memory counters; on every flush this adds what the node itself counted since its last
// flush to the store's fleet totals (store/fleet-counters.ts) and reads back every total any node
// changed since its last read. A counter then holds: this node's own count + the other nodes'
// count as of their last flush (`injected`).
//
// Bound (README, Stores): a node admits while own + injected < cap, so past the cap the fleet
// admits at most what the other nodes admitted in the lag before this node's last admission,
// lag = their flush interval + this node's flush interval + one store round trip (plus what was
// in flight, already reserved). A burst shorter than one flush interval is not seen by anyone:
// then N nodes admit up to N x cap.
//
// What is summed: the position-independent values of a record (a key's minute and budget
// requests, tokens, overflow and outstanding reservations; each group window's) by value
// number, and the raw tokens of its
// budget-window lane slots by lane, under the holder `<holder>\u0001<lane id>`: slots are claimed
// first-free on each node, so the same lane can sit in different slots on two nodes, and a
// slot's lane-id word is never summed.
//
// Outstanding words (what the requests in flight reserved, reserved-words.ts) are summed like
// the others but go up and down: the fleet total under a window is every node's reservations in
// flight as of its last flush, so a node admits against the others' reservations too. Their
// packed format (a version next to the count) is read and written through ReservedWords.
//
// A flush batch has an id (stream = node run, seq): a batch whose reply was lost is retried with
// the same id before any new one and the store skips it, so a delta is never added twice.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import {
  GOV_BUDGET_RESERVED,
  GOV_GROUP_LANE_SLOTS,
  GOV_GROUP_LANE_SLOTS_AT,
  GOV_GROUP_WINDOWS,
  GOV_KEY_BUDGET_RESERVED,
  GOV_KEY_LANE_SLOTS,
  GOV_KEY_LANE_SLOTS_AT,
  GOV_KEY_MINUTE_TOKENS_RESERVED,
  GOV_SLOT_CACHE_CREATION,
  GOV_SLOT_INPUT,
  GOV_SLOT_LANE,
  GOV_SLOT_VALUES,
  GOV_TOKENS_RESERVED,
} from '../../shared/sab/layout.js';
import { tagNewer, type CounterDelta, type FleetCount, type FleetCounters } from '../store/fleet-counters.js';
import type { FlushBatch, Store } from '../store/store.js';
import type { GovernanceService } from './service.js';

/** One value of one holder as this node accounts it, under window `tag`. */
interface Cell {
  tag: number;
  /** The other nodes' count added into the shared-memory word. */
  injected: number;
  /** This node's own count already added to the fleet total. */
  flushedOwn: number;
  /** What `injected` should be: the fleet total minus `flushedOwn`, at change number `changed`. */
  others: number;
  changed: number;
}

export class FleetReconciler {
  private readonly cells = new Map<string, Array<Cell | undefined>>();
  /** Holders whose learnt count could not be put in shared memory yet (not on this node yet). */
  private readonly waiting = new Set<string>();
  private readonly stream = `${randomUUID()}/counters`;
  private seq = 0;
  private since = 0;
  private unacked: { batch: FlushBatch; deltas: CounterDelta[] } | null = null;
  failures = 0;

  constructor(
    private readonly service: GovernanceService,
    private readonly store: Store & FleetCounters,
    private readonly log: Logger,
  ) {}

  /** After the saved counters were restored: what they hold counts as learnt, not as this node's own. */
  baseline(holders: Iterable<string>): void {
    for (const holder of holders) {
      this.visitRecord(holder, (name, value, index) => {
        const count = this.countAt(name, value, index);
        if (count === 0) return;
        const tag = this.tagAt(name, value, index);
        this.cellsOf(name)[value] = { tag, injected: count, flushedOwn: 0, others: count, changed: 0 };
      });
    }
  }

  /** One flush: `keys` are the ids of keys whose counters changed here since the last flush. */
  async flush(keys: readonly string[]): Promise<void> {
    if (this.unacked !== null) {
      if (!(await this.send(this.unacked.batch, this.unacked.deltas))) return;
    }
    const deltas: CounterDelta[] = [];
    for (const id of keys) this.collect(`key:${id}`, deltas);
    for (const name of this.service.groups.keys()) this.collect(`group:${name}`, deltas);
    await this.send({ stream: this.stream, seq: ++this.seq }, deltas);
  }

  /** Forget a deleted holder (its slot may serve another key next), its lanes too. */
  forget(holder: string): void {
    const lanes = holder + LANE_SEP;
    for (const name of this.cells.keys()) {
      if (name === holder || name.startsWith(lanes)) {
        this.cells.delete(name);
        this.waiting.delete(name);
      }
    }
  }

  private async send(batch: FlushBatch, deltas: CounterDelta[]): Promise<boolean> {
    let result;
    try {
      result = await this.store.reconcileCounters(batch, deltas, this.since);
    } catch (err) {
      this.unacked = { batch, deltas };
      this.failures++;
      this.log.warn(
        { err: (err as Error).message, failures: this.failures, deltas: deltas.length },
        "fleet counters could not be reconciled; admitting on this node's counters, retrying the same batch next flush",
      );
      return false;
    }
    this.unacked = null;
    // Applied now or by an attempt whose reply was lost: either way the store holds these deltas once.
    for (const d of deltas) {
      const cell = this.cells.get(d.holder)?.[d.value];
      if (cell !== undefined && cell.tag === d.tag) cell.flushedOwn += d.delta;
    }
    for (const row of result.rows) this.learn(row);
    this.since = result.last;
    for (const holder of this.waiting) this.putInMemory(holder);
    return true;
  }

  /** This node's own change of each value of `holder` (and of its lanes) since its last flush. */
  private collect(holder: string, out: CounterDelta[]): void {
    this.visitRecord(holder, (name, value, index) => {
      const count = this.countAt(name, value, index);
      const tag = this.tagAt(name, value, index);
      const cells = this.cells.get(name);
      let cell = cells?.[value];
      if (cell === undefined || tagNewer(tag, cell.tag)) {
        if (count === 0) return;
        cell = { tag, injected: 0, flushedOwn: 0, others: 0, changed: 0 };
        this.cellsOf(name)[value] = cell;
      } else if (tag !== cell.tag) return;
      const delta = count - cell.injected - cell.flushedOwn;
      if (delta !== 0) out.push({ holder: name, value, tag, delta });
    });
  }

  private learn(row: FleetCount): void {
    const cells = this.cellsOf(row.holder);
    let cell = cells[row.value];
    if (cell === undefined || tagNewer(row.tag, cell.tag)) {
      cell = { tag: row.tag, injected: 0, flushedOwn: 0, others: 0, changed: 0 };
      cells[row.value] = cell;
    } else if (row.tag !== cell.tag || row.changed <= cell.changed) return;
    cell.changed = row.changed;
    cell.others = Math.max(0, row.count - cell.flushedOwn);
    this.waiting.add(row.holder);
  }

  /** Moves each cell's shared-memory word by what was learnt since it was last moved. */
  private putInMemory(holder: string): void {
    const cells = this.cells.get(holder);
    if (cells === undefined) {
      this.waiting.delete(holder);
      return;
    }
    for (let v = 0; v < cells.length; v++) {
      const cell = cells[v];
      if (cell === undefined || cell.others === cell.injected) continue;
      const index = this.indexOf(holder, v, cell.tag);
      if (index === undefined) {
        // A key revoked everywhere never comes back; one not synced to this node yet will.
        const base = baseHolder(holder);
        if (base.startsWith('key:') && this.service.revocations.has(base.slice(4))) this.forget(base);
        return;
      }
      if (index < 0) continue; // every lane slot holds another lane in that window
      if (this.inject(holder, v, index, cell.tag, cell.others - cell.injected)) cell.injected = cell.others;
    }
    this.waiting.delete(holder);
  }

  /** Value `v` of `holder` is an outstanding word (a lane's values never are). */
  private outstanding(holder: string, v: number): boolean {
    if (holder.includes(LANE_SEP)) return false;
    if (holder.startsWith('key:')) return v === GOV_KEY_MINUTE_TOKENS_RESERVED || v === GOV_KEY_BUDGET_RESERVED;
    const m = v % GOV_GROUP_LANE_SLOTS_AT;
    return m === GOV_TOKENS_RESERVED || m === GOV_BUDGET_RESERVED;
  }

  private countAt(holder: string, v: number, index: number): number {
    const { governance, reserved } = this.service.shared;
    return this.outstanding(holder, v) ? reserved.countAt(index) : governance.countAt(index);
  }

  private tagAt(holder: string, v: number, index: number): number {
    const { governance, reserved } = this.service.shared;
    return this.outstanding(holder, v) ? reserved.tagAt(index) : governance.tagAt(index);
  }

  private inject(holder: string, v: number, index: number, tag: number, amount: number): boolean {
    const { governance, reserved } = this.service.shared;
    return this.outstanding(holder, v) ? reserved.inject(index, tag, amount) : governance.inject(index, tag, amount);
  }

  private cellsOf(holder: string): Array<Cell | undefined> {
    let cells = this.cells.get(holder);
    if (cells === undefined) {
      cells = [];
      this.cells.set(holder, cells);
    }
    return cells;
  }

  /**
   * Each summed value of a record as (holder name, value number, shared-memory index): the
   * position-independent values, then each lane slot's raw tokens under the lane's own name
   * (taken only while the slot's token word is in the window its lane was claimed for).
   */
  private visitRecord(holder: string, visit: (name: string, value: number, index: number) => void): void {
    const counters = this.service.shared.governance;
    const key = holder.startsWith('key:');
    const windows = key ? 1 : GOV_GROUP_WINDOWS;
    const plain = key ? GOV_KEY_LANE_SLOTS_AT : GOV_GROUP_LANE_SLOTS_AT;
    const slots = key ? GOV_KEY_LANE_SLOTS : GOV_GROUP_LANE_SLOTS;
    for (let w = 0; w < windows; w++) {
      for (let m = 0; m < plain; m++) {
        const index = this.indexOf(holder, w * plain + m, 0);
        if (index !== undefined) visit(holder, w * plain + m, index);
      }
      const slotsAt = this.laneSlotsAt(holder, w);
      if (slotsAt === undefined) continue;
      for (let s = 0; s < slots; s++) {
        const laneAt = slotsAt + s * GOV_SLOT_VALUES + GOV_SLOT_LANE;
        const lane = counters.countAt(laneAt);
        if (lane === 0) break; // claimed first-free: the rest are free too
        const laneTag = counters.tagAt(laneAt);
        for (let f = GOV_SLOT_INPUT; f <= GOV_SLOT_CACHE_CREATION; f++) {
          if (counters.tagAt(laneAt + f) !== laneTag) continue;
          visit(`${holder}${LANE_SEP}${lane}`, w * LANE_FIELDS + f, laneAt + f);
        }
      }
    }
  }

  /** The first lane slot of window `w` of `holder` (a key has one: its budget window). */
  private laneSlotsAt(holder: string, w: number): number | undefined {
    const { shared, keySlots, groups, registry } = this.service;
    if (holder.startsWith('key:')) {
      const slot = keySlots.get(holder.slice(4));
      return slot === undefined || w !== 0 ? undefined : shared.governance.keyIndex(slot, GOV_KEY_LANE_SLOTS_AT);
    }
    const name = holder.slice(6);
    if (!holder.startsWith('group:') || !groups.has(name) || w >= GOV_GROUP_WINDOWS) return undefined;
    return shared.governance.groupIndex(registry.groupSlot(name), w, GOV_GROUP_LANE_SLOTS_AT);
  }

  /**
   * The shared-memory word of value `v` of `holder`, or undefined when this node does not hold
   * it. For a
   * lane's name, the word of that lane's slot under window `tag`, claiming a free slot for it
   * (-1: none free).
   */
  private indexOf(holder: string, v: number, tag: number): number | undefined {
    const { shared, keySlots, groups, registry } = this.service;
    const counters = shared.governance;
    const cut = holder.indexOf(LANE_SEP);
    if (cut >= 0) {
      const base = holder.slice(0, cut);
      const lane = Number(holder.slice(cut + 1));
      const w = Math.floor(v / LANE_FIELDS);
      const field = v % LANE_FIELDS;
      if (!(lane > 0) || field < GOV_SLOT_INPUT || field > GOV_SLOT_CACHE_CREATION) return undefined;
      const slotsAt = this.laneSlotsAt(base, w);
      if (slotsAt === undefined) return undefined;
      const at = counters.laneSlotAt(slotsAt, base.startsWith('key:') ? GOV_KEY_LANE_SLOTS : GOV_GROUP_LANE_SLOTS, tag, lane);
      return at < 0 ? -1 : at + field;
    }
    if (holder.startsWith('key:')) {
      const slot = keySlots.get(holder.slice(4));
      return slot === undefined || v >= GOV_KEY_LANE_SLOTS_AT ? undefined : counters.keyIndex(slot, v);
    }
    const name = holder.slice(6);
    const window = Math.floor(v / GOV_GROUP_LANE_SLOTS_AT);
    const metric = v % GOV_GROUP_LANE_SLOTS_AT;
    if (!holder.startsWith('group:') || !groups.has(name) || window >= GOV_GROUP_WINDOWS) return undefined;
    return counters.groupIndex(registry.groupSlot(name), window, metric);
  }
}

/** Separates a holder from a lane id in a lane's holder name (not a character names use). */
const LANE_SEP = '\u0001';
/** Value numbers per window in a lane's holder name: the slot's fields by their offset. */
const LANE_FIELDS = GOV_SLOT_VALUES;

function baseHolder(name: string): string {
  const cut = name.indexOf(LANE_SEP);
  return cut < 0 ? name : name.slice(0, cut);
}
