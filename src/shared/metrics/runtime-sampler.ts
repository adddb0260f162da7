// Each thread's own runtime figures, for gateway_thread_heap_used_bytes,
// gateway_thread_event_loop_delay_seconds and gateway_thread_busy_ratio: every 5 s the thread
// writes its V8 heap in use, the 99th percentile and maximum of its event-loop delay since the
// last sample, and the share of the interval its event loop was busy with work into its gauges.
// Delay is measured by node's monitorEventLoopDelay (a native timer, no JS per tick); busy is
// node's event-loop utilization minus the time the worker's idle spin polled with nothing to do
// (a spinning loop never idles, so its utilization reads near 1 whatever the work).
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { ThreadRuntimeSlots } from '../config/compiled.js';
import type { SharedState } from '../sab/index.js';

const RUNTIME_SAMPLE_MS = 5_000;
/** The delay timer's period: fine enough to see a 20 ms stall, coarse enough to cost nothing. */
const DELAY_RESOLUTION_MS = 20;
const INT32_MAX = 0x7fffffff;

/** Parts per million in an Int32 gauge: the busy ratio to six places. */
export const BUSY_RATIO_SCALE = 1_000_000;

/** Ms this thread's idle spin has polled with nothing to do, since start (none outside a worker). */
let spinTimeMs: () => number = () => 0;

/** The worker's idle spin registers its running total of polling time, once, at load. */
export function countSpinTime(source: () => number): void {
  spinTimeMs = source;
}

/** The busy share of an interval: event-loop active time less spin time, over the interval. */
export function busyRatio(elu: Pick<EventLoopUtilization, 'active' | 'idle'>, spinMs: number): number {
  const totalMs = elu.active + elu.idle;
  if (!(totalMs > 0)) return 0;
  return Math.min(1, Math.max(0, (elu.active - spinMs) / totalMs));
}

function lateUs(periodNs: number): number {
  return Math.min(INT32_MAX, Math.max(0, Math.round(periodNs / 1000) - DELAY_RESOLUTION_MS * 1000));
}

/** Starts sampling for the thread that owns `shared`'s holder, for the thread's life (the timer
 * is unref'd, so it never keeps a thread alive). */
export function startRuntimeSampler(shared: SharedState, slotsOf: () => readonly ThreadRuntimeSlots[] | undefined): void {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  let spinMs = spinTimeMs();
  const timer = setInterval(() => {
    const slots = slotsOf()?.[shared.holderId];
    if (slots === undefined) return;
    const metrics = shared.metrics;
    metrics.gaugeSet(slots.heapKib, Math.min(INT32_MAX, Math.round(getHeapStatistics().used_heap_size / 1024)));
    // The histogram holds whole timer periods: the delay is what exceeds the period.
    metrics.gaugeSet(slots.loopP99Us, lateUs(delay.percentile(99)));
    metrics.gaugeSet(slots.loopMaxUs, lateUs(delay.max));
    delay.reset();
    const nowElu = performance.eventLoopUtilization();
    const nowSpinMs = spinTimeMs();
    metrics.gaugeSet(slots.busyPpm, Math.round(busyRatio(performance.eventLoopUtilization(nowElu, elu), nowSpinMs - spinMs) * BUSY_RATIO_SCALE));
    elu = nowElu;
    spinMs = nowSpinMs;
  }, RUNTIME_SAMPLE_MS);
  timer.unref();
}
