// Main thread: hands out records in shared memory and remembers them by name for the life of
// the process, so the same lane, (pool, lane) cell, bucket or metric series always lands on
// the same slot and its counters and breaker state carry across config applies. A slot is
// never freed or reused: a removed lane keeps its record (a worker may still hold the index,
// and a re-added lane picks up where it left off). Growth is eager: each new record grows the
// buffer before its slot is returned, so by the time a config naming it reaches a worker the
// worker's views already cover it. Past the reserved maximum the assignment throws
// SharedCapacityError and records nothing.
import type { SlotAssigner } from '../config/compiled.js';
import {
  CELL_RECORD_WORDS,
  COUNTER_RECORD_WORDS,
  DEFAULT_JOURNAL_ENTRIES,
  GAUGE_RECORD_WORDS,
  GOV_KEY_RECORD_WORDS,
  HEADER_WORDS,
  HIST_BOUNDS_MAX,
  KIND_CELL,
  KIND_CONCURRENCY,
  KIND_COUNTER,
  KIND_GAUGE,
  KIND_GOV_GROUP,
  KIND_GOV_KEY,
  KIND_HISTOGRAM,
  KIND_LANE,
  KIND_RESERVATIONS,
  MAIN_HOLDER,
  WORD_BYTES,
  concurrencyRecordWords,
  govGroupRecordWords,
  histogramRecordWords,
  journalRecordWords,
  laneRecordWords,
} from './layout.js';
import type { SharedState } from './shared-state.js';

export type MetricSeriesSpec =
  | { kind: 'counter' }
  | { kind: 'gauge' }
  /** `bounds`: strictly increasing upper bounds; `sumScale`: the sum is kept as
   * round(value * sumScale) in an integer (default 1000, e.g. seconds kept as ms). */
  | { kind: 'histogram'; bounds: readonly number[]; sumScale?: number };

export interface MetricSeriesEntry {
  key: string;
  slot: number;
  spec: MetricSeriesSpec;
}

export interface ReclaimReport {
  permits: number;
  probes: number;
  /** Governance reservations given back (reservation journal items). */
  reservations: number;
}

const DEFAULT_SUM_SCALE = 1000;
const SUM_SCALE_MAX = 1_000_000_000;

export class SlotRegistry implements SlotAssigner {
  private nextWord = HEADER_WORDS;
  private readonly laneSlots = new Map<string, number>();
  private readonly poolCells = new Map<string, Map<string, number>>();
  private readonly defaultCells = new Map<string, number>();
  private readonly cellsByLane = new Map<string, number[]>();
  private readonly concurrencySlots = new Map<string, number>();
  private readonly groupSlots = new Map<string, number>();
  private journalSlot = 0;
  /** Key records handed back by deleted keys, reused before the buffer grows (LIFO). */
  private readonly freeKeySlots: number[] = [];
  private keySlotsInUse = 0;
  private readonly groupWords: number;
  private readonly metricEntries = new Map<string, MetricSeriesEntry>();
  private readonly laneWords: number;
  private readonly concurrencyWords: number;

  constructor(private readonly state: SharedState) {
    if (state.holderId !== MAIN_HOLDER) throw new Error('the SlotRegistry lives on the main thread');
    this.laneWords = laneRecordWords(state.holders);
    this.concurrencyWords = concurrencyRecordWords(state.holders);
    this.groupWords = govGroupRecordWords(state.holders);
  }

  // ---- SlotAssigner --------------------------------------------------------------------------

  get holders(): number {
    return this.state.holders;
  }

  laneSlot(lane: string): number {
    const known = this.laneSlots.get(lane);
    if (known !== undefined) return known;
    const slot = this.allocate(this.laneWords, KIND_LANE, `lane ${JSON.stringify(lane)}`);
    this.laneSlots.set(lane, slot);
    return slot;
  }

  cellSlot(pool: string, lane: string): number {
    let cells = this.poolCells.get(pool);
    const known = cells?.get(lane);
    if (known !== undefined) return known;
    const slot = this.allocate(CELL_RECORD_WORDS, KIND_CELL, `breaker cell ${JSON.stringify(pool)}/${JSON.stringify(lane)}`);
    if (cells === undefined) this.poolCells.set(pool, (cells = new Map()));
    cells.set(lane, slot);
    this.addCellOfLane(lane, slot);
    return slot;
  }

  defaultCellSlot(lane: string): number {
    const known = this.defaultCells.get(lane);
    if (known !== undefined) return known;
    const slot = this.allocate(CELL_RECORD_WORDS, KIND_CELL, `default breaker cell of lane ${JSON.stringify(lane)}`);
    this.defaultCells.set(lane, slot);
    this.addCellOfLane(lane, slot);
    return slot;
  }

  bytesNeeded(): number {
    return this.nextWord * WORD_BYTES;
  }

  // ---- governance and metrics ------------------------------------------------------------------

  /**
   * A key's record (all its windows). Keys come and go by the million, so a deleted key's
   * record is handed back (releaseKeySlot) and reused, zeroed, by the next key.
   */
  allocateKeySlot(): number {
    const reused = this.freeKeySlots.pop();
    let slot: number;
    if (reused !== undefined) {
      slot = reused;
      this.state.governance.clear(slot, false);
    } else {
      slot = this.allocate(GOV_KEY_RECORD_WORDS, KIND_GOV_KEY, 'governance key record');
    }
    this.keySlotsInUse++;
    return slot;
  }

  /** A deleted key's record, to be reused (after every worker dropped the key). */
  releaseKeySlot(slot: number): void {
    if (this.state.kindAt(slot) !== KIND_GOV_KEY) throw new Error(`slot ${slot} is not a key record`);
    this.freeKeySlots.push(slot);
    this.keySlotsInUse--;
  }

  /** A group's record (all its windows and its in-flight count); kept by name for the process. */
  groupSlot(name: string): number {
    const known = this.groupSlots.get(name);
    if (known !== undefined) return known;
    const slot = this.allocate(this.groupWords, KIND_GOV_GROUP, `governance group ${JSON.stringify(name)}`);
    this.groupSlots.set(name, slot);
    return slot;
  }

  /**
   * The reservation journals: `entries` per holder for holders 0..holders-1 (main's are never
   * used; it keeps the arithmetic plain). Once per process, before the first worker starts; a
   * second call returns the same slot.
   */
  reservationJournals(entries = DEFAULT_JOURNAL_ENTRIES, holders = this.state.holders): number {
    if (this.journalSlot !== 0) return this.journalSlot;
    if (!(Number.isInteger(entries) && entries > 0 && entries <= 1 << 20)) throw new RangeError(`journal entries must be 1..${1 << 20}, got ${entries}`);
    const covered = Math.min(holders, this.state.holders);
    const slot = this.allocate(journalRecordWords(covered, entries), KIND_RESERVATIONS, 'reservation journals');
    this.state.initJournals(slot, entries, covered);
    this.journalSlot = slot;
    return slot;
  }

  /** The `concurrent` gauge of one bucket (only buckets with a concurrent limit need one). */
  concurrencySlot(bucketId: string): number {
    const known = this.concurrencySlots.get(bucketId);
    if (known !== undefined) return known;
    const slot = this.allocate(this.concurrencyWords, KIND_CONCURRENCY, `concurrency of bucket ${JSON.stringify(bucketId)}`);
    this.concurrencySlots.set(bucketId, slot);
    return slot;
  }

  /**
   * The series for `key` (the caller's canonical name + labels). Asking again with the same
   * spec returns the same slot; a different kind or different bounds is an error.
   */
  metricSeries(key: string, spec: MetricSeriesSpec): number {
    const known = this.metricEntries.get(key);
    if (known !== undefined) {
      if (!sameSpec(known.spec, spec)) throw new Error(`metric series ${JSON.stringify(key)} already exists with a different kind or bounds`);
      return known.slot;
    }
    const what = `metric series ${JSON.stringify(key)}`;
    let slot: number;
    switch (spec.kind) {
      case 'counter':
        slot = this.allocate(COUNTER_RECORD_WORDS, KIND_COUNTER, what);
        this.state.metrics.initCounter(slot);
        break;
      case 'gauge':
        slot = this.allocate(GAUGE_RECORD_WORDS, KIND_GAUGE, what);
        this.state.metrics.initGauge(slot);
        break;
      case 'histogram': {
        const sumScale = spec.sumScale ?? DEFAULT_SUM_SCALE;
        checkHistogram(key, spec.bounds, sumScale);
        slot = this.allocate(histogramRecordWords(spec.bounds.length), KIND_HISTOGRAM, what);
        this.state.metrics.initHistogram(slot, spec.bounds, sumScale);
        break;
      }
      default:
        throw new Error(`metric series ${JSON.stringify(key)} has an unknown kind`);
    }
    const copy: MetricSeriesSpec =
      spec.kind === 'histogram' ? { kind: 'histogram', bounds: [...spec.bounds], sumScale: spec.sumScale ?? DEFAULT_SUM_SCALE } : { kind: spec.kind };
    this.metricEntries.set(key, { key, slot, spec: copy });
    return slot;
  }

  /** Every series so far, for the catalog sent to whoever renders /metrics. */
  metricSeriesList(): MetricSeriesEntry[] {
    return [...this.metricEntries.values()];
  }

  // ---- lookups ---------------------------------------------------------------------------------

  /** Every breaker cell of a lane (its pool cells and its default cell): what a successful
   * active health probe clears. */
  cellsOfLane(lane: string): readonly number[] {
    return this.cellsByLane.get(lane) ?? [];
  }

  lanes(): IterableIterator<[string, number]> {
    return this.laneSlots.entries();
  }

  counts(): { lanes: number; cells: number; governance: number; concurrency: number; metrics: number; bytes: number } {
    let cells = this.defaultCells.size;
    for (const m of this.poolCells.values()) cells += m.size;
    return {
      lanes: this.laneSlots.size,
      cells,
      governance: this.keySlotsInUse + this.groupSlots.size,
      concurrency: this.concurrencySlots.size,
      metrics: this.metricEntries.size,
      bytes: this.bytesNeeded(),
    };
  }

  /**
   * After holder `holderId`'s thread has exited (the worker 'exit' event; never while it may
   * still run): return every lane permit and concurrency slot it held, drop any probe it
   * owned and give back the governance reservations its requests in flight held, so a crashed
   * worker does not shrink a lane, wedge a HalfOpen cell or hold a budget. Do this
   * before a replacement worker reuses the id.
   */
  reclaimHolder(holderId: number): ReclaimReport {
    if (!(Number.isInteger(holderId) && holderId > MAIN_HOLDER && holderId < this.state.holders)) {
      throw new RangeError(`cannot reclaim holder ${holderId}: worker holders are 1..${this.state.holders - 1}`);
    }
    let permits = 0;
    let probes = 0;
    for (const slot of this.laneSlots.values()) permits += this.state.lanes.reclaimHolder(slot, holderId);
    for (const slot of this.concurrencySlots.values()) permits += this.state.concurrency.reclaimHolder(slot, holderId);
    for (const slot of this.groupSlots.values()) permits += this.state.governance.reclaimHolder(slot, holderId);
    for (const cells of this.cellsByLane.values()) {
      for (const cell of cells) if (this.state.breakers.reclaimProbe(cell, holderId)) probes++;
    }
    const reservations = this.state.reclaimReservations(holderId);
    return { permits, probes, reservations };
  }

  private addCellOfLane(lane: string, cell: number): void {
    const cells = this.cellsByLane.get(lane);
    if (cells === undefined) this.cellsByLane.set(lane, [cell]);
    else cells.push(cell);
  }

  /** Grow first, then record: a full buffer throws and leaves the registry unchanged. */
  private allocate(words: number, kind: number, what: string): number {
    const slot = this.nextWord;
    const end = slot + words;
    this.state.ensureBytes(end * WORD_BYTES, what);
    this.nextWord = end;
    this.state.stampKind(slot, kind);
    return slot;
  }
}

function checkHistogram(key: string, bounds: readonly number[], sumScale: number): void {
  if (!Array.isArray(bounds) || bounds.length < 1 || bounds.length > HIST_BOUNDS_MAX) {
    throw new RangeError(`histogram ${JSON.stringify(key)} needs 1..${HIST_BOUNDS_MAX} bounds`);
  }
  for (let i = 0; i < bounds.length; i++) {
    const b = bounds[i]!;
    if (!Number.isFinite(b) || (i > 0 && !(b > bounds[i - 1]!))) {
      throw new RangeError(`histogram ${JSON.stringify(key)} bounds must be finite and strictly increasing`);
    }
  }
  if (!(Number.isInteger(sumScale) && sumScale >= 1 && sumScale <= SUM_SCALE_MAX)) {
    throw new RangeError(`histogram ${JSON.stringify(key)} sumScale must be an integer 1..${SUM_SCALE_MAX}`);
  }
}

function sameSpec(a: MetricSeriesSpec, b: MetricSeriesSpec): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind !== 'histogram' || b.kind !== 'histogram') return true;
  if ((b.sumScale ?? DEFAULT_SUM_SCALE) !== a.sumScale) return false;
  return a.bounds.length === b.bounds.length && a.bounds.every((v, i) => v === b.bounds[i]);
}
