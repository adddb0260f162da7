// gateway_thread_heap_used_bytes, gateway_thread_event_loop_delay_seconds and
// gateway_thread_busy_ratio: what each thread last wrote into its gauges (src/shared/metrics/runtime-sampler.ts). A thread that has not
// sampled yet (its heap gauge still 0) shows no series.
import { Gauge, type Registry } from 'prom-client';
import { BUSY_RATIO_SCALE } from '../../shared/metrics/runtime-sampler.js';
import { THREAD_BUSY_RATIO, THREAD_EVENT_LOOP_DELAY_SECONDS, THREAD_HEAP_USED_BYTES, threadLabel } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerThreadRuntime(registry: Registry, source: SeriesSource): void {
  const metrics = source.shared.metrics;
  new Gauge({
    name: THREAD_HEAP_USED_BYTES.name,
    help: THREAD_HEAP_USED_BYTES.help,
    labelNames: THREAD_HEAP_USED_BYTES.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      source.slots().threads.forEach((slots, holder) => {
        const kib = metrics.gaugeValue(slots.heapKib);
        if (kib > 0) this.set({ thread: threadLabel(holder) }, kib * 1024);
      });
    },
  });
  new Gauge({
    name: THREAD_EVENT_LOOP_DELAY_SECONDS.name,
    help: THREAD_EVENT_LOOP_DELAY_SECONDS.help,
    labelNames: THREAD_EVENT_LOOP_DELAY_SECONDS.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      source.slots().threads.forEach((slots, holder) => {
        if (metrics.gaugeValue(slots.heapKib) === 0) return;
        const thread = threadLabel(holder);
        this.set({ thread, stat: 'p99' }, metrics.gaugeValue(slots.loopP99Us) / 1e6);
        this.set({ thread, stat: 'max' }, metrics.gaugeValue(slots.loopMaxUs) / 1e6);
      });
    },
  });
  new Gauge({
    name: THREAD_BUSY_RATIO.name,
    help: THREAD_BUSY_RATIO.help,
    labelNames: THREAD_BUSY_RATIO.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      source.slots().threads.forEach((slots, holder) => {
        if (metrics.gaugeValue(slots.heapKib) === 0) return;
        this.set({ thread: threadLabel(holder) }, metrics.gaugeValue(slots.busyPpm) / BUSY_RATIO_SCALE);
      });
    },
  });
}
