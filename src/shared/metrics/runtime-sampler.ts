// Each thread's own runtime figures, for gateway_thread_heap_used_bytes and
// gateway_thread_event_loop_delay_seconds: every 5 s the thread writes its V8 heap in use and the
// 99th percentile and maximum of its event-loop delay since the last sample into its gauges.
// Delay is measured by node's monitorEventLoopDelay (a native timer, no JS per tick).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { ThreadRuntimeSlots } from '../config/compiled.js';
import type { SharedState } from '../sab/index.js';

const RUNTIME_SAMPLE_MS = 5_000;
/** The delay timer's period: fine enough to see a 20 ms stall, coarse enough to cost nothing. */
const DELAY_RESOLUTION_MS = 20;
const INT32_MAX = 0x7fffffff;

function lateUs(periodNs: number): number {
  return Math.min(INT32_MAX, Math.max(0, Math.round(periodNs / 1000) - DELAY_RESOLUTION_MS * 1000));
}

/** Starts sampling for the thread that owns `shared`'s holder, for the thread's life (the timer
 * is unref'd, so it never keeps a thread alive). */
export function startRuntimeSampler(shared: SharedState, slotsOf: () => readonly ThreadRuntimeSlots[] | undefined): void {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  delay.enable();
  const timer = setInterval(() => {
    const slots = slotsOf()?.[shared.holderId];
    if (slots === undefined) return;
    const metrics = shared.metrics;
    metrics.gaugeSet(slots.heapKib, Math.min(INT32_MAX, Math.round(getHeapStatistics().used_heap_size / 1024)));
    // The histogram holds whole timer periods: the delay is what exceeds the period.
    metrics.gaugeSet(slots.loopP99Us, lateUs(delay.percentile(99)));
    metrics.gaugeSet(slots.loopMaxUs, lateUs(delay.max));
    delay.reset();
  }, RUNTIME_SAMPLE_MS);
  timer.unref();
}
