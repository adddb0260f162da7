// The shared state of one gateway process, as one thread sees it. The main thread calls
// create() (holder 0); it posts buffers() to each worker once, and the worker calls
// attach(buffers, workerHolder(workerId)). Views are made once here and the accessor groups
// (lanes, breakers, concurrency, governance, metrics) read and write through them, so the
// hot paths allocate nothing. Growth happens on main (SlotRegistry) and needs no message:
// every view tracks the buffer's length.
import { BreakerCells } from './breaker-cells.js';
import { ConcurrencyGauges } from './concurrency-gauges.js';
import { GovernanceCounters } from './governance-counters.js';
import { asGrowable, createGrowableBuffer, ensureBufferBytes, type GrowableSharedArrayBuffer } from './growable-buffer.js';
import { LaneCounters } from './lane-counters.js';
import {
  DEFAULT_HOLDERS,
  DEFAULT_INITIAL_BYTES,
  DEFAULT_MAX_BYTES,
  ERROR_WINDOW_SLOTS,
  HEADER_ERROR_WINDOW_SLOTS,
  HEADER_FAULTS,
  HEADER_HOLDERS,
  HEADER_MAGIC,
  HEADER_RESERVATIONS,
  HEADER_TIME_BASE_MS,
  HEADER_VERSION,
  HEADER_WORDS,
  JOURNAL_ENTRIES,
  JOURNAL_HOLDERS,
  LAYOUT_MAGIC,
  LAYOUT_VERSION,
  MAIN_HOLDER,
  MAX_HOLDERS,
  RECORD_KIND,
  WORD_BYTES,
} from './layout.js';
import { MetricSeries } from './metric-series.js';
import { ReservationJournal, reclaimJournal } from './reservation-journal.js';
import { ReservedWords } from './reserved-words.js';
import { SettleGate } from './settle-gate.js';
import { SharedViews } from './shared-views.js';

/** What main posts to a worker (in workerData or a message); the buffer is shared, not copied. */
export interface SharedBuffers {
  readonly memory: SharedArrayBuffer;
}

export interface SharedStateOptions {
  /** Permit holders: main + the most workers that will ever run at once. Default 65. */
  holders?: number;
  /** Reserved maximum (address space; committed as used). Default 256 MiB. */
  maxBytes?: number;
  /** Bytes committed at start. Default 64 KiB. */
  initialBytes?: number;
  /** Ms epoch cooldown deadlines count from; default now. Tests with a fake clock set it. */
  timeBaseMs?: number;
}

export const HEADER_BYTES = HEADER_WORDS * WORD_BYTES;

export class SharedState {
  readonly lanes: LaneCounters;
  readonly breakers: BreakerCells;
  readonly concurrency: ConcurrencyGauges;
  readonly governance: GovernanceCounters;
  /** The outstanding words of governance limits (what requests in flight reserved). */
  readonly reserved: ReservedWords;
  /** This thread's reservation journal entries (workers; main reclaims a dead worker's). */
  readonly journal: ReservationJournal;
  /** Settles versus main's flush cuts (settle-gate.ts). */
  readonly settleGate: SettleGate;
  readonly metrics: MetricSeries;
  readonly holders: number;
  readonly timeBaseMs: number;
  private readonly views: SharedViews;
  private readonly posted: SharedBuffers;

  private constructor(
    buffer: GrowableSharedArrayBuffer,
    readonly holderId: number,
  ) {
    this.views = new SharedViews(buffer);
    this.holders = this.views.holders;
    this.timeBaseMs = this.views.timeBaseMs;
    if (!(Number.isInteger(holderId) && holderId >= 0 && holderId < this.holders)) {
      throw new RangeError(`holder id ${holderId} is outside 0..${this.holders - 1} (shared memory was created for ${this.holders} holders)`);
    }
    this.lanes = new LaneCounters(this.views, holderId);
    this.breakers = new BreakerCells(this.views, holderId);
    this.concurrency = new ConcurrencyGauges(this.views, holderId);
    this.governance = new GovernanceCounters(this.views, holderId);
    this.reserved = new ReservedWords(this.views);
    this.journal = new ReservationJournal(this.views, holderId);
    this.settleGate = new SettleGate(this.views, holderId);
    this.metrics = new MetricSeries(this.views);
    this.posted = Object.freeze({ memory: buffer });
  }

  /** Main thread: lay out a fresh buffer and write its header. */
  static create(options: SharedStateOptions = {}): SharedState {
    const holders = options.holders ?? DEFAULT_HOLDERS;
    if (!(Number.isInteger(holders) && holders >= 1 && holders <= MAX_HOLDERS)) throw new RangeError(`holders must be 1..${MAX_HOLDERS}, got ${holders}`);
    const maxBytes = roundUp8(options.maxBytes ?? DEFAULT_MAX_BYTES);
    const initialBytes = roundUp8(Math.min(maxBytes, Math.max(HEADER_BYTES, options.initialBytes ?? DEFAULT_INITIAL_BYTES)));
    if (!(maxBytes >= HEADER_BYTES)) throw new RangeError(`maxBytes must be at least ${HEADER_BYTES}, got ${options.maxBytes}`);
    const timeBaseMs = options.timeBaseMs ?? Date.now();
    if (!Number.isFinite(timeBaseMs)) throw new RangeError(`timeBaseMs must be a finite ms epoch, got ${timeBaseMs}`);

    const buffer = createGrowableBuffer(initialBytes, maxBytes);
    const i32 = new Int32Array(buffer);
    new Float64Array(buffer)[HEADER_TIME_BASE_MS >> 1] = timeBaseMs;
    Atomics.store(i32, HEADER_VERSION, LAYOUT_VERSION);
    Atomics.store(i32, HEADER_HOLDERS, holders);
    Atomics.store(i32, HEADER_ERROR_WINDOW_SLOTS, ERROR_WINDOW_SLOTS);
    Atomics.store(i32, HEADER_MAGIC, LAYOUT_MAGIC);
    return new SharedState(buffer, MAIN_HOLDER);
  }

  /** Worker: attach to the buffers main posted. Refuses a buffer of another layout. */
  static attach(buffers: SharedBuffers, holderId: number): SharedState {
    const memory = buffers?.memory;
    if (!(memory instanceof SharedArrayBuffer)) throw new TypeError('shared buffers must carry the gateway SharedArrayBuffer in `memory`');
    const buffer = asGrowable(memory);
    if (buffer.byteLength < HEADER_BYTES) throw new Error('shared memory is shorter than its header');
    const i32 = new Int32Array(buffer);
    if (Atomics.load(i32, HEADER_MAGIC) !== LAYOUT_MAGIC) throw new Error('shared memory has no gateway header (wrong buffer?)');
    const version = Atomics.load(i32, HEADER_VERSION);
    if (version !== LAYOUT_VERSION) throw new Error(`shared memory layout version ${version} does not match this build's ${LAYOUT_VERSION}`);
    const windowSlots = Atomics.load(i32, HEADER_ERROR_WINDOW_SLOTS);
    if (windowSlots !== ERROR_WINDOW_SLOTS) throw new Error(`shared memory error window has ${windowSlots} slots, this build expects ${ERROR_WINDOW_SLOTS}`);
    return new SharedState(buffer, holderId);
  }

  /** The object to post to workers (always the same one). */
  buffers(): SharedBuffers {
    return this.posted;
  }

  byteLength(): number {
    return this.views.buffer.byteLength;
  }

  maxBytes(): number {
    return this.views.buffer.maxByteLength;
  }

  /** Main thread: grow to at least `bytes` (e.g. CompiledConfig.sabBytes). Throws
   * SharedCapacityError past the reserved maximum. */
  ensureBytes(bytes: number, what = 'the compiled config'): void {
    if (this.holderId !== MAIN_HOLDER) throw new Error('only the main thread grows shared memory');
    ensureBufferBytes(this.views.buffer, roundUp8(bytes), what);
  }

  /** Worker check on a config: does the buffer already hold every slot it names? */
  covers(bytes: number): boolean {
    return this.views.buffer.byteLength >= bytes;
  }

  /** Detected invariant violations since start (bad releases, counter wraps); expect 0. */
  faultCount(): number {
    return Atomics.load(this.views.i32For(HEADER_FAULTS), HEADER_FAULTS);
  }

  /** The record kind at a slot (KIND_* in layout.ts): for assertions and diagnostics. */
  kindAt(slot: number): number {
    return Atomics.load(this.views.i32For(slot + RECORD_KIND), slot + RECORD_KIND);
  }

  /** Registry only (main): lay out the reservation journals record, then point the header at it. */
  initJournals(slot: number, entries: number, holders: number): void {
    const i32 = this.views.i32For(slot + JOURNAL_HOLDERS);
    Atomics.store(i32, slot + JOURNAL_ENTRIES, entries);
    Atomics.store(i32, slot + JOURNAL_HOLDERS, holders);
    Atomics.store(i32, HEADER_RESERVATIONS, slot);
  }

  /** Main, after holder `holderId` exited: give back what its journal entries still hold. */
  reclaimReservations(holderId: number): number {
    return reclaimJournal(this.views, this.reserved, holderId);
  }

  /** Registry only (main): stamp a new record's kind before its slot is handed out. */
  stampKind(slot: number, kind: number): void {
    Atomics.store(this.views.i32For(slot + RECORD_KIND), slot + RECORD_KIND, kind);
  }
}

function roundUp8(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}
