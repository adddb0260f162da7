// What GET /stats shows of the answering worker's shedding: `availability: shedding` (with a
// recovery hint of the shed Retry-After) on every lane and member that would otherwise be
// `available` while the worker sheds, and an `overload` record with its in-flight count, limit
// and shed total. Shedding is per worker, so the view is the answering worker's.
import { SHED_RETRY_AFTER_SECS } from './inflight-limit.js';

export interface OverloadState {
  sheddingNow: boolean;
  inflight: number;
  limit: number;
  shed: number;
}

type Cell = Record<string, unknown>;

function mark(cell: Cell): void {
  if (cell.availability !== 'available') return;
  cell.availability = 'shedding';
  cell.recovery_hint_ms = SHED_RETRY_AFTER_SECS * 1000;
}

export function markShedding(view: Record<string, unknown>, state: OverloadState): void {
  view.overload = { shedding: state.sheddingNow, worker_inflight: state.inflight, max_inflight_per_worker: state.limit, shed_total: state.shed };
  if (!state.sheddingNow) return;
  for (const lane of (view.lanes as Cell[] | undefined) ?? []) mark(lane);
  for (const pool of (view.pools as Array<{ members: Cell[] }> | undefined) ?? []) for (const m of pool.members) mark(m);
}
