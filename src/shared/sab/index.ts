// Shared memory of the gateway: the layout, the accessors both sides use, and the main
// thread's slot registry. See docs/shared-memory.md.
export * from './layout.js';
export { SharedCapacityError, SharedInvariantError } from './faults.js';
export { SharedState, HEADER_BYTES, type SharedBuffers } from './shared-state.js';
export { SlotRegistry } from './slot-registry.js';
export { ErrorWindowCounts } from './breaker-cells.js';
export { GovernanceCounters, GOV_REFUSED } from './governance-counters.js';
export { ReservedWords } from './reserved-words.js';
export { SettleGate } from './settle-gate.js';
export {
  ReservationJournal,
  noteItem,
  itemCount,
  clearItems,
  itemIndex,
  itemTag,
  itemAmount,
  privateEntryWords,
  type JournalEntry,
} from './reservation-journal.js';
export { WIDE_DELTA_MAX } from './wide-counter.js';
