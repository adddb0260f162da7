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
// A flush batch has an id (stream = node run, seq): a batch whose reply was lost is retried with
// the same id before any new one and the store skips it, so a delta is never added twice.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import { GOV_GROUP_VALUE_COUNT, GOV_KEY_VALUE_COUNT, GOV_METRICS } from '../../shared/sab/layout.js';
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
    const counters = this.service.shared.governance;
    for (const holder of holders) {
      const values = valueCount(holder);
      for (let v = 0; v < values; v++) {
        const index = this.indexOf(holder, v);
        if (index === undefined) continue;
        const count = counters.countAt(index);
        if (count === 0) continue;
        const tag = counters.tagAt(index);
        this.cellsOf(holder)[v] = { tag, injected: count, flushedOwn: 0, others: count, changed: 0 };
      }
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

  /** Forget a deleted holder (its slot may serve another key next). */
  forget(holder: string): void {
    this.cells.delete(holder);
    this.waiting.delete(holder);
  }

  private async send(batch: FlushBatch, deltas: CounterDelta[]): Promise<boolean> {
    let result;
    try {
      result = await this.store.reconcileCounters(batch, deltas, this.since);
    } catch (err) {
      this.unacked = { batch, deltas };
      this.failures++;
      this.log.warn({ err: (err as Error).message, failures: this.failures, deltas: deltas.length }, 'fleet counters could not be reconciled; admitting on this node\'s counters, retrying the same batch next flush');
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

  /** This node's own change of each value of `holder` since its last flush. */
  private collect(holder: string, out: CounterDelta[]): void {
    const counters = this.service.shared.governance;
    const values = valueCount(holder);
    const cells = this.cells.get(holder);
    for (let v = 0; v < values; v++) {
      const index = this.indexOf(holder, v);
      if (index === undefined) continue;
      const count = counters.countAt(index);
      const tag = counters.tagAt(index);
      let cell = cells?.[v];
      if (cell === undefined || tagNewer(tag, cell.tag)) {
        if (count === 0) continue;
        cell = { tag, injected: 0, flushedOwn: 0, others: 0, changed: 0 };
        this.cellsOf(holder)[v] = cell;
      } else if (tag !== cell.tag) continue;
      const delta = count - cell.injected - cell.flushedOwn;
      if (delta !== 0) out.push({ holder, value: v, tag, delta });
    }
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
    const counters = this.service.shared.governance;
    for (let v = 0; v < cells.length; v++) {
      const cell = cells[v];
      if (cell === undefined || cell.others === cell.injected) continue;
      const index = this.indexOf(holder, v);
      if (index === undefined) {
        // A key revoked everywhere never comes back; one not synced to this node yet will.
        if (this.service.revocations.has(holder.slice(4))) this.forget(holder);
        return;
      }
      if (counters.inject(index, cell.tag, cell.others - cell.injected)) cell.injected = cell.others;
    }
    this.waiting.delete(holder);
  }

  private cellsOf(holder: string): Array<Cell | undefined> {
    let cells = this.cells.get(holder);
    if (cells === undefined) {
      cells = [];
      this.cells.set(holder, cells);
    }
    return cells;
  }

  /** The shared-memory word of value `v` of `holder`, or undefined when this node does not hold it. */
  private indexOf(holder: string, v: number): number | undefined {
    const { shared, keySlots, groups, registry } = this.service;
    if (holder.startsWith('key:')) {
      const slot = keySlots.get(holder.slice(4));
      return slot === undefined || v >= GOV_KEY_VALUE_COUNT ? undefined : shared.governance.keyIndex(slot, v);
    }
    const name = holder.slice(6);
    if (!holder.startsWith('group:') || !groups.has(name) || v >= GOV_GROUP_VALUE_COUNT) return undefined;
    return shared.governance.groupIndex(registry.groupSlot(name), Math.floor(v / GOV_METRICS), v % GOV_METRICS);
  }
}

function valueCount(holder: string): number {
  return holder.startsWith('key:') ? GOV_KEY_VALUE_COUNT : GOV_GROUP_VALUE_COUNT;
}
