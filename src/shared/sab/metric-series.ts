// Metric series in shared memory: counters (wide, monotonic), gauges (Int32) and histograms
// (fixed upper bounds chosen at creation, non-cumulative bucket counts, a scaled integer
// sum). Workers add; whoever renders /metrics reads. A series is a slot from
// SlotRegistry.metricSeries(). Histogram count is the sum of its buckets, so count and
// buckets always agree; the sum is a separate word and may trail them by one observation.
// Windowed quantiles (`buffer_seconds`) are the exporter's job: it keeps snapshots of the
// cumulative buckets and subtracts.
import {
  COUNTER_VALUE,
  GAUGE_VALUE,
  HIST_BOUND_COUNT,
  HIST_BOUNDS,
  HIST_SUM_SCALE,
  KIND_COUNTER,
  KIND_GAUGE,
  KIND_HISTOGRAM,
  RECORD_KIND,
  histogramBucketWord,
  histogramRecordWords,
  histogramSumWord,
} from './layout.js';
import type { SharedViews } from './shared-views.js';
import { wideAdd, wideRead } from './wide-counter.js';

export interface HistogramSnapshot {
  /** Upper bounds in the series' unit; the last bucket (+Inf) has no entry here. */
  bounds: number[];
  /** Non-cumulative counts, bounds.length + 1 of them. */
  counts: number[];
  count: number;
  /** Sum of observed values in the series' unit (scaled integer divided back). */
  sum: number;
}

export class MetricSeries {
  constructor(private readonly views: SharedViews) {}

  counterAdd(series: number, n = 1): void {
    wideAdd(this.views, series + COUNTER_VALUE, n);
  }

  counterValue(series: number): number {
    return wideRead(this.views.u32For(series + COUNTER_VALUE + 1), series + COUNTER_VALUE);
  }

  gaugeAdd(series: number, delta: number): number {
    return Atomics.add(this.views.i32For(series + GAUGE_VALUE), series + GAUGE_VALUE, delta) + delta;
  }

  gaugeSet(series: number, value: number): void {
    Atomics.store(this.views.i32For(series + GAUGE_VALUE), series + GAUGE_VALUE, value);
  }

  gaugeValue(series: number): number {
    return Atomics.load(this.views.i32For(series + GAUGE_VALUE), series + GAUGE_VALUE);
  }

  /**
   * Count `value` in the first bucket whose upper bound is >= value (Prometheus `le`).
   * Negative or NaN counts as 0; +Infinity lands in the +Inf bucket and adds nothing to the
   * sum. The bounds and scale were written before the series was handed out and never
   * change, so plain reads suffice for them.
   */
  observe(series: number, value: number): void {
    const i32 = this.views.i32For(series + HIST_SUM_SCALE);
    const boundCount = i32[series + HIST_BOUND_COUNT]!;
    const boundsAt = (series + HIST_BOUNDS) >> 1;
    const f64 = this.views.f64For(boundsAt + boundCount);
    if (!(value > 0)) value = 0;
    // Binary search for the first bound >= value: four or five reads for the catalog's ~16
    // bounds, where a scan from the bottom read as many bounds as the latency had buckets to climb.
    let low = 0;
    let high = boundCount;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (value > f64[boundsAt + mid]!) low = mid + 1;
      else high = mid;
    }
    wideAdd(this.views, series + histogramBucketWord(boundCount, low), 1);
    const scaled = Math.round(value * i32[series + HIST_SUM_SCALE]!);
    if (scaled > 0 && scaled <= Number.MAX_SAFE_INTEGER) wideAdd(this.views, series + histogramSumWord(boundCount), scaled);
  }

  readHistogram(series: number): HistogramSnapshot {
    const i32 = this.views.i32For(series + HIST_SUM_SCALE);
    const boundCount = i32[series + HIST_BOUND_COUNT]!;
    const boundsAt = (series + HIST_BOUNDS) >> 1;
    const f64 = this.views.f64For(boundsAt + boundCount);
    const u32 = this.views.u32For(series + histogramRecordWords(boundCount) - 1);
    const bounds: number[] = [];
    const counts: number[] = [];
    let count = 0;
    for (let i = 0; i < boundCount; i++) bounds.push(f64[boundsAt + i]!);
    for (let i = 0; i <= boundCount; i++) {
      const c = wideRead(u32, series + histogramBucketWord(boundCount, i));
      counts.push(c);
      count += c;
    }
    const sum = wideRead(u32, series + histogramSumWord(boundCount)) / i32[series + HIST_SUM_SCALE]!;
    return { bounds, counts, count, sum };
  }

  /** Registry only (main thread), before the slot is handed out. */
  initCounter(series: number): void {
    Atomics.store(this.views.i32For(series + RECORD_KIND), series + RECORD_KIND, KIND_COUNTER);
  }

  /** Registry only (main thread), before the slot is handed out. */
  initGauge(series: number): void {
    Atomics.store(this.views.i32For(series + RECORD_KIND), series + RECORD_KIND, KIND_GAUGE);
  }

  /** Registry only (main thread), before the slot is handed out. */
  initHistogram(series: number, bounds: readonly number[], sumScale: number): void {
    const boundsAt = (series + HIST_BOUNDS) >> 1;
    const f64 = this.views.f64For(boundsAt + bounds.length);
    for (let i = 0; i < bounds.length; i++) f64[boundsAt + i] = bounds[i]!;
    const i32 = this.views.i32For(series + HIST_SUM_SCALE);
    Atomics.store(i32, series + HIST_BOUND_COUNT, bounds.length);
    Atomics.store(i32, series + HIST_SUM_SCALE, sumScale);
    Atomics.store(i32, series + RECORD_KIND, KIND_HISTOGRAM);
  }
}
