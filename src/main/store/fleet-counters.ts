// Governance counters summed over the fleet (several nodes on one shared store). Each node
// admits against its own shared-memory counters; on every flush it adds what it counted since
// the last flush (its deltas) to the store's fleet totals and reads back the totals that any
// node changed since its last read, so its counters then hold the other nodes' spend too.
// The store keeps one row per (holder, value): the window tag and the fleet count under it; a
// delta under a newer tag starts the window over, one under an older tag is dropped (the same
// rule as the shared-memory words). Every write gets a fleet-wide change number, increasing in
// commit order, so "changed since N" misses nothing.
import type { FlushBatch, Store } from './store.js';

/** What one node counted under `tag` for one value of one holder (`key:<id>`, `group:<name>`). */
export interface CounterDelta {
  holder: string;
  value: number;
  tag: number;
  delta: number;
}

/** The fleet total of one value of one holder, and the change number of its last write. */
export interface FleetCount {
  holder: string;
  value: number;
  tag: number;
  count: number;
  changed: number;
}

export interface FleetReconcile {
  /** False when the batch had been applied before (a retry after a lost reply): nothing was added. */
  applied: boolean;
  /** Every row changed after `since`, in change order. */
  rows: FleetCount[];
  /** The highest change number in the store now (the next call's `since`). */
  last: number;
}

/** A store several nodes share: adds a node's deltas and answers what changed since `since`. */
export interface FleetCounters {
  reconcileCounters(batch: FlushBatch, deltas: CounterDelta[], since: number): Promise<FleetReconcile>;
}

export function hasFleetCounters(store: Store): store is Store & FleetCounters {
  return typeof (store as Partial<FleetCounters>).reconcileCounters === 'function';
}

/** 16-bit window tags: is `a` a later window than `b` (serial-number arithmetic, as in shared memory). */
export function tagNewer(a: number, b: number): boolean {
  const d = (a - b) & 0xffff;
  return d !== 0 && d < 0x8000;
}
