// gateway_thread_heap_used_bytes, gateway_thread_event_loop_delay_seconds and
// gateway_thread_busy_ratio: what each thread last wrote into its gauges (src/shared/metrics/runtime-sampler.ts). A thread that has not
// sampled yet (its heap gauge still 0) shows no series.
import type { Registry } from 'prom-client';
import { scrapedGauge } from './scraped-family.js';
import { BUSY_RATIO_SCALE } from '../../shared/metrics/runtime-sampler.js';
import { THREAD_BUSY_RATIO, THREAD_EVENT_LOOP_DELAY_SECONDS, THREAD_HEAP_USED_BYTES, threadLabel } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerThreadRuntime(registry: Registry, source: SeriesSource): void {
  const metrics = source.shared.metrics;
  scrapedGauge(registry, THREAD_HEAP_USED_BYTES, function () {
    this.reset();
    source.slots().threads.forEach((slots, holder) => {
      const kib = metrics.gaugeValue(slots.heapKib);
      if (kib > 0) this.set({ thread: threadLabel(holder) }, kib * 1024);
    });
  });
  scrapedGauge(registry, THREAD_EVENT_LOOP_DELAY_SECONDS, function () {
    this.reset();
    source.slots().threads.forEach((slots, holder) => {
      if (metrics.gaugeValue(slots.heapKib) === 0) return;
      const thread = threadLabel(holder);
      this.set({ thread, stat: 'p99' }, metrics.gaugeValue(slots.loopP99Us) / 1e6);
      this.set({ thread, stat: 'max' }, metrics.gaugeValue(slots.loopMaxUs) / 1e6);
    });
  });
  scrapedGauge(registry, THREAD_BUSY_RATIO, function () {
    this.reset();
    source.slots().threads.forEach((slots, holder) => {
      if (metrics.gaugeValue(slots.heapKib) === 0) return;
      this.set({ thread: threadLabel(holder) }, metrics.gaugeValue(slots.busyPpm) / BUSY_RATIO_SCALE);
    });
  });
}
