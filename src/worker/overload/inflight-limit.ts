// Load shedding (issue 15): a worker holds at most `advanced.max_inflight_per_worker` requests
// at once; past it, a data-plane request is answered 503 with Retry-After in its own protocol
// at once, before its body is parsed or anything is routed, instead of queueing behind the
// others and slowing every caller. The default is sized from memory: the worker's heap limit
// over a budget per in-flight request.
import { getHeapStatistics } from 'node:v8';

/** Heap budgeted per in-flight request for the default limit (bodies, parsed and translated copies, buffers). */
const HEAP_PER_INFLIGHT_BYTES = 1024 * 1024;
const DEFAULT_LIMIT_FLOOR = 256;
const DEFAULT_LIMIT_CEILING = 8192;
/** Retry-After of a shed request: the overload is a moment's, not a lane's cooldown. */
export const SHED_RETRY_AFTER_SECS = 1;
/** How long after the last shed /stats still shows `shedding`. */
const SHEDDING_SHOWN_MS = 1000;

/** The limit when the setting is absent: this thread's heap limit / 1 MiB, within [256, 8192]. */
function defaultInflightLimit(heapLimitBytes = getHeapStatistics().heap_size_limit): number {
  return Math.min(DEFAULT_LIMIT_CEILING, Math.max(DEFAULT_LIMIT_FLOOR, Math.floor(heapLimitBytes / HEAP_PER_INFLIGHT_BYTES)));
}

/** This worker's shedding: the limit in force, what was shed, and whether it is shedding now. */
export class ShedState {
  shed = 0;
  private lastShedMs = 0;
  private readonly memoryDefault = defaultInflightLimit();

  /** The limit for a configured value (0 = not set: the memory-sized default). */
  limit(configured: number): number {
    return configured > 0 ? configured : this.memoryDefault;
  }

  record(nowMs: number): void {
    this.shed++;
    this.lastShedMs = nowMs;
  }

  sheddingAt(nowMs: number): boolean {
    return this.shed > 0 && nowMs - this.lastShedMs < SHEDDING_SHOWN_MS;
  }
}
