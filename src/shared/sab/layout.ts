// The one layout of the gateway's shared memory: a single growable SharedArrayBuffer made of a
// fixed header and then records handed out by the main thread's SlotRegistry. A slot is the
// Int32 word index of a record's first word, so an accessor reaches a field with
// `slot + FIELD`; every FIELD below is a word offset inside its record. Records start on an
// even word (8-byte aligned) so their 64-bit fields are aligned for BigInt64/Float64 views.
// Nothing outside src/shared/sab computes an offset. docs/shared-memory.md draws all of this.

/** Bytes per word: every field is one Int32/Uint32 word or two words for a 64-bit value. */
export const WORD_BYTES = 4;

// ---- header (word 0) --------------------------------------------------------------------

/** 'GWAB' in ASCII: `attach` refuses a buffer that does not start with it. */
export const LAYOUT_MAGIC = 0x47574142;
/** Bumped on any change below, so a stale worker build cannot misread the buffer. */
export const LAYOUT_VERSION = 4;

export const HEADER_MAGIC = 0;
export const HEADER_VERSION = 1;
/** Number of permit holders (main + workers) every permit record has a shadow word for. */
export const HEADER_HOLDERS = 2;
/** Positions in each breaker cell's error-window ring (copied from ERROR_WINDOW_SLOTS). */
export const HEADER_ERROR_WINDOW_SLOTS = 3;
/** Count of detected invariant violations (bad release, counter overflow); should stay 0. */
export const HEADER_FAULTS = 4;
/** Int32: the slot of the reservation journals record (0 = none yet); written once by main,
 * before any worker that uses it starts. */
export const HEADER_RESERVATIONS = 5;
/** Float64 at word 6: the ms epoch the cooldown ticks count from. Written once by create. */
export const HEADER_TIME_BASE_MS = 6;
/** Int32: 1 while main takes a flush cut (settles wait: settle-gate.ts); 0 otherwise. */
export const HEADER_SETTLE_PAUSE = 8;
/** Int32: the flush epoch a settle's usage belongs to (main bumps it at each cut). */
export const HEADER_FLUSH_EPOCH = 9;
export const HEADER_WORDS = 16;

// ---- record kinds (word 0 of every record) -----------------------------------------------

// 0: a free record (a fresh buffer is zeros; no code writes it).
export const KIND_LANE = 1;
export const KIND_CONCURRENCY = 2;
export const KIND_CELL = 3;
// 4: retired (layout 1's per-bucket governance record); the number is not reused.
export const KIND_COUNTER = 5;
export const KIND_GAUGE = 6;
export const KIND_HISTOGRAM = 7;
export const KIND_GOV_KEY = 8;
export const KIND_GOV_GROUP = 9;
export const KIND_RESERVATIONS = 10;

export const RECORD_KIND = 0;

// ---- permit block (shared by lane and concurrency records) -------------------------------

/** Int32: permits currently held by all holders together. */
export const PERMIT_INFLIGHT = 1;

// ---- lane record -------------------------------------------------------------------------

/** Int32: requests taken against the `max_requests` lifetime budget (only while one is set). */
export const LANE_LIFETIME_TAKEN = 2;
/** Int32: 0 = alive; any other value is a dead reason code chosen by the routing policy. */
export const LANE_DEAD_REASON = 3;
/** Wide counter (Uint32 lo, hi): successful requests. */
export const LANE_OK = 4;
/** Wide counter (Uint32 lo, hi): errored requests. */
export const LANE_ERR = 6;
/** Int32: latency EWMA of successful attempts in microseconds + 1; 0 = no sample yet. */
export const LANE_LATENCY_EWMA_US = 8;
/** Int32 per holder: permits that holder holds (lets main reclaim a dead worker's permits). */
export const LANE_HOLDERS = 10;

export function laneRecordWords(holders: number): number {
  return evenWords(LANE_HOLDERS + holders);
}

// ---- concurrency record (a governance bucket's `concurrent` gauge) -----------------------

export const CONCURRENCY_HOLDERS = 4;

export function concurrencyRecordWords(holders: number): number {
  return evenWords(CONCURRENCY_HOLDERS + holders);
}

// ---- breaker cell ------------------------------------------------------------------------

/** Int32: BREAKER_CLOSED, BREAKER_HALF_OPEN or BREAKER_OPEN; changed only by CAS. */
export const CELL_STATE = 1;
/** Int32: consecutive failures. */
export const CELL_STREAK = 2;
/** Int32: 0 = no probe in flight, else holder id + 1 of the probe's owner. */
export const CELL_PROBE = 3;
/** Uint32: Closed-to-Open trips. */
export const CELL_TRIP_COUNT = 4;
/** Uint32: epoch seconds of the last trip; 0 = never tripped. */
export const CELL_LAST_TRIP_SEC = 5;
/** Uint32: cooldown-until as cooldown ticks + 2^31; 0 = no cooldown (COOLDOWN_NONE). */
export const CELL_COOLDOWN = 6;
/** Uint32: newest epoch second any outcome was recorded for in the error window. */
export const CELL_WINDOW_LAST_SEC = 7;
/** Int32: opens since the cell last closed (trips plus failed probes); picks the cooldown step. */
export const CELL_OPEN_STREAK = 8;
/** Int32: 0, or the hard-down reason (CELL_HARD_DOWN_BILLING / _AUTH) of the open it is in. */
export const CELL_HARD_DOWN = 9;
/** Error-window ring: per position an ok word then an err word, each (lap16 << 16) | count16. */
export const CELL_WINDOW = 10;

/** Positions in the error-window ring; also the longest error-rate window in seconds. */
export const ERROR_WINDOW_SLOTS = 128;
export const ERROR_WINDOW_SHIFT = 7;
/** A per-second count stops at this value rather than wrapping into the lap tag. */
export const ERROR_WINDOW_COUNT_MAX = 0xffff;

export const CELL_RECORD_WORDS = CELL_WINDOW + 2 * ERROR_WINDOW_SLOTS;

export const BREAKER_CLOSED = 0;
export const BREAKER_HALF_OPEN = 1;
export const BREAKER_OPEN = 2;

export const CELL_HARD_DOWN_NONE = 0;
export const CELL_HARD_DOWN_BILLING = 1;
export const CELL_HARD_DOWN_AUTH = 2;

/** Cooldown-until is stored in ticks of this many ms from the header's time base. */
export const COOLDOWN_TICK_MS = 100;
/** Raw cell value meaning "no cooldown"; the zeroed memory of a new cell. */
export const COOLDOWN_NONE = 0;
/** Raw = ticks + COOLDOWN_BIAS keeps a signed tick range in a Uint32 with 0 left free. */
export const COOLDOWN_BIAS = 0x80000000;

// ---- governance records (one per key, one per group, each holding all its windows) ------
//
// Every value is a BigUint64 word: a 16-bit window tag in the top bits (which window the value
// counts, see src/shared/governance/windows.ts) and the count in the low 48 bits. A word whose
// tag is older than the current window reads as 0, so a window "rolls" by the first CAS that
// writes the new tag: there is no separate start word to race with, no zeroing stores that
// could wipe a concurrent reserve, and a settle that remembers its reservation's tag can never
// subtract from a newer window.

/** Low bits of a governance value word hold the count; the top 16 bits hold the window tag. */
export const GOV_VALUE_BITS = 48n;
export const GOV_VALUE_MAX = (1n << GOV_VALUE_BITS) - 1n;

/** Tokens of one lane in a budget window: a lane slot is the lane's id (lane-id.ts; 0 = free)
 * and its four raw token counts, so spend is recomputed from tokens x the current rate card. */
export const GOV_SLOT_LANE = 0;
export const GOV_SLOT_INPUT = 1;
export const GOV_SLOT_OUTPUT = 2;
export const GOV_SLOT_CACHE_READ = 3;
export const GOV_SLOT_CACHE_CREATION = 4;
export const GOV_SLOT_VALUES = 5;

/** Key record: word 0 kind, word 1 dirty flag, then its values (184 bytes in all). */
/** Int32: 1 when a value changed since main last saved the record (so a save of a million
 * keys reads a million flags, not twenty million BigInts). */
export const GOV_KEY_DIRTY = 1;
export const GOV_KEY_VALUES = 2;
/** Value numbers inside a key record: the minute window (rpm, tpm) and the budget window. */
export const GOV_KEY_MINUTE_REQUESTS = 0;
export const GOV_KEY_MINUTE_TOKENS = 1;
/** Requests charged the fee in the budget window (counted when a request ends). */
export const GOV_KEY_BUDGET_REQUESTS = 2;
export const GOV_KEY_BUDGET_TOKENS = 3;
/** Micros accrued at settle for lanes beyond the key's lane slots (not re-priced). */
export const GOV_KEY_BUDGET_OVERFLOW = 4;
/** Outstanding words (see below): tokens reserved by requests in flight under the tpm_limit,
 * and micros reserved under the key's budget. */
export const GOV_KEY_MINUTE_TOKENS_RESERVED = 5;
export const GOV_KEY_BUDGET_RESERVED = 6;
export const GOV_KEY_LANE_SLOTS_AT = 7;
/** Lanes whose tokens a key keeps per budget window (a fourth lane in one window accrues). */
export const GOV_KEY_LANE_SLOTS = 3;
export const GOV_KEY_VALUE_COUNT = GOV_KEY_LANE_SLOTS_AT + GOV_KEY_LANE_SLOTS * GOV_SLOT_VALUES;
export const GOV_KEY_RECORD_WORDS = GOV_KEY_VALUES + 2 * GOV_KEY_VALUE_COUNT;

/** Values inside one group window. */
export const GOV_REQUESTS = 0;
export const GOV_TOKENS = 1;
/** Requests charged the fee under the window's budget limit. */
export const GOV_BUDGET_REQUESTS = 2;
/** Micros accrued for lanes beyond the window's lane slots. */
export const GOV_BUDGET_OVERFLOW = 3;
/** Outstanding words: tokens reserved under the window's tokens limit, micros under its budget. */
export const GOV_TOKENS_RESERVED = 4;
export const GOV_BUDGET_RESERVED = 5;
export const GOV_GROUP_LANE_SLOTS_AT = 6;
export const GOV_GROUP_LANE_SLOTS = 6;
export const GOV_WINDOW_VALUES = GOV_GROUP_LANE_SLOTS_AT + GOV_GROUP_LANE_SLOTS * GOV_SLOT_VALUES;

/** Group record: word 0 kind, word 1 requests in flight (the `concurrent` limit, a permit
 * block), then window w's value v at value number w * GOV_WINDOW_VALUES + v for the five group
 * windows, then one shadow word per holder (so main can reclaim a dead worker's in-flight). */
export const GOV_GROUP_VALUES = 2;
export const GOV_GROUP_WINDOWS = 5;
export const GOV_GROUP_VALUE_COUNT = GOV_GROUP_WINDOWS * GOV_WINDOW_VALUES;
export const GOV_GROUP_HOLDERS = GOV_GROUP_VALUES + 2 * GOV_GROUP_VALUE_COUNT;

export function govGroupRecordWords(holders: number): number {
  return evenWords(GOV_GROUP_HOLDERS + holders);
}

// An OUTSTANDING word (the *_RESERVED values) holds what the requests in flight reserved and
// goes up at admission and down at settle, so a check that reads it and then CASes it must not
// be fooled by a give-back and a new reservation of the same size in between (ABA): its low
// Uint32 carries an 8-bit version that every write bumps. Layout, little-endian halves:
//   hi = tag (16) << 16 | count bits 24..39 (16)      lo = version (8) << 24 | count bits 0..23
// so a reservation or give-back that does not carry across bit 24 is one 32-bit CAS on lo.
export const OUTSTANDING_LO_COUNT_BITS = 24;
export const OUTSTANDING_LO_COUNT_MASK = 0xffffff;
/** 2^40 - 1: the most a bucket can have outstanding at once (a trillion tokens or micros). */
export const OUTSTANDING_MAX = 2 ** 40 - 1;

/** The BigUint64 index of value `value` of the record at `slot` whose values start at `base`. */
export function govValueIndex(slot: number, base: number, value: number): number {
  return (slot + base + 2 * value) >> 1;
}

// ---- reservation journals (one record; header word HEADER_RESERVATIONS points at it) ------
//
// Each worker writes down, in entries of its own, what every request in flight reserved (the
// outstanding word's index, the window tag, the amount), so that main can give back what a
// worker that died (a crash, an operator recycle) held, as it reclaims a dead worker's permits.
// An entry is written only by its worker and read by main only after that worker exited.

/** Int32: entries per holder. */
export const JOURNAL_ENTRIES = 1;
/** Int32: holders covered (holder h's entries follow holder h - 1's). */
export const JOURNAL_HOLDERS = 2;
/** Int32 per holder from this word: 1 while that holder is inside a settle (settle-gate.ts). */
export const JOURNAL_SETTLING = 4;
/** Words per entry: word 0 the item count (0 = free), then items of (index, tag, amount). */
export const JOURNAL_ENTRY_WORDS = 32;
export const JOURNAL_ITEM_WORDS = 3;
export const JOURNAL_ITEMS_MAX = Math.floor((JOURNAL_ENTRY_WORDS - 1) / JOURNAL_ITEM_WORDS);
/** Entries per worker by default: requests in flight with a reservation on one worker. */
export const DEFAULT_JOURNAL_ENTRIES = 4096;

/** The first entry's word inside the record (after the holders' settling flags). */
function journalFirstEntry(holders: number): number {
  return evenWords(JOURNAL_SETTLING + holders);
}

export function journalRecordWords(holders: number, entries: number): number {
  return journalFirstEntry(holders) + holders * entries * JOURNAL_ENTRY_WORDS;
}

/** The word of holder `holder`'s entry `entry` in the journal record at `slot` covering `holders`. */
export function journalEntryWord(slot: number, holders: number, entries: number, holder: number, entry: number): number {
  return slot + journalFirstEntry(holders) + (holder * entries + entry) * JOURNAL_ENTRY_WORDS;
}

// ---- metric records ----------------------------------------------------------------------

/** Counter: wide counter at words 2..3. */
export const COUNTER_VALUE = 2;
export const COUNTER_RECORD_WORDS = 4;

/** Gauge: Int32 at word 1. */
export const GAUGE_VALUE = 1;
export const GAUGE_RECORD_WORDS = 2;

/** Histogram: Int32 bound count n, Int32 sum scale, then n Float64 upper bounds, the wide
 * sum, and n + 1 wide bucket counts (the last is +Inf). Buckets are not cumulative. */
export const HIST_BOUND_COUNT = 1;
export const HIST_SUM_SCALE = 2;
export const HIST_BOUNDS = 4;
export const HIST_BOUNDS_MAX = 64;

export function histogramSumWord(boundCount: number): number {
  return HIST_BOUNDS + 2 * boundCount;
}

export function histogramBucketWord(boundCount: number, bucket: number): number {
  return histogramSumWord(boundCount) + 2 + 2 * bucket;
}

export function histogramRecordWords(boundCount: number): number {
  return histogramBucketWord(boundCount, boundCount + 1);
}

// ---- capacities --------------------------------------------------------------------------

/** Default reserved size: address space only; pages are committed as the buffer grows. */
export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;
export const DEFAULT_INITIAL_BYTES = 64 * 1024;
/** Holder 0 is the main thread; worker n is holder n + 1. */
export const DEFAULT_HOLDERS = 65;
export const MAX_HOLDERS = 1024;
/** Largest permit limit and lifetime budget an Int32 word can count to. */
export const INT32_COUNT_MAX = 0x7fffffff;

export const MAIN_HOLDER = 0;

/** The holder id of worker `workerId` (0-based), as used by SharedState.attach. */
export function workerHolder(workerId: number): number {
  return workerId + 1;
}

function evenWords(words: number): number {
  return words + (words & 1);
}
