// gateway_request_duration_seconds{ingress_protocol, pool}: a histogram whose buckets and sum
// live in shared memory (observed by countRequest), rendered cumulative with _sum and _count
// since process start; and gateway_request_duration_window_seconds, its quantiles over the
// export's buffer_seconds (HistogramWindows). prom-client renders both: the families are
// objects with get(), the shape prom-client's Registry formats, because its own Histogram
// can only count observations made in this thread.
import type { Registry } from 'prom-client';
import type { PoolMetricSlots } from '../../shared/config/compiled.js';
import { REQUEST_DURATION_QUANTILES, REQUEST_DURATION_SECONDS, REQUEST_DURATION_WINDOW_SECONDS } from '../../shared/metrics/catalog.js';
import { PROTOCOL_NAMES } from '../../shared/model/types.js';
import { DIRECT_POOL_LABEL } from '../../shared/routing/series.js';
import { HistogramWindows, bucketQuantile } from './duration-window.js';
import { registerSampleFamily, type Sample } from './sample-family.js';
import type { SeriesSource } from './series-source.js';

type Values = Sample[];

function leLabel(bound: number): string {
  return bound === Infinity ? '+Inf' : String(bound);
}

class DurationFamilies {
  private readonly windows = new HistogramWindows();
  private histogram: Values = [];
  private summary: Values = [];

  constructor(private readonly source: SeriesSource) {}

  /** Read every series once per scrape (both families come from the same reading). */
  read(): void {
    const source = this.source;
    const bufferSeconds = source.config().metrics.prometheus?.bufferSeconds ?? 60;
    this.windows.begin(source.nowMs(), bufferSeconds);
    const histogram: Values = [];
    const summary: Values = [];
    const add = (pool: string, slots: PoolMetricSlots): void => {
      for (let p = 0; p < PROTOCOL_NAMES.length; p++) {
        const slot = slots.duration[p]!;
        const snap = source.shared.metrics.readHistogram(slot);
        const labels = { ingress_protocol: PROTOCOL_NAMES[p]!, pool };
        let cumulative = 0;
        for (let i = 0; i < snap.counts.length; i++) {
          cumulative += snap.counts[i]!;
          histogram.push({
            metricName: `${REQUEST_DURATION_SECONDS.name}_bucket`,
            labels: { ...labels, le: leLabel(i < snap.bounds.length ? snap.bounds[i]! : Infinity) },
            value: cumulative,
          });
        }
        histogram.push({ metricName: `${REQUEST_DURATION_SECONDS.name}_sum`, labels, value: snap.sum });
        histogram.push({ metricName: `${REQUEST_DURATION_SECONDS.name}_count`, labels, value: snap.count });
        const window = this.windows.window(slot, snap.counts, snap.sum, bufferSeconds);
        if (window.count === 0) continue;
        for (const q of REQUEST_DURATION_QUANTILES) {
          summary.push({ metricName: REQUEST_DURATION_WINDOW_SECONDS.name, labels: { ...labels, quantile: q }, value: bucketQuantile(q, snap.bounds, window) });
        }
        summary.push({ metricName: `${REQUEST_DURATION_WINDOW_SECONDS.name}_sum`, labels, value: window.sum });
        summary.push({ metricName: `${REQUEST_DURATION_WINDOW_SECONDS.name}_count`, labels, value: window.count });
      }
    };
    for (const pool of source.config().pools) add(pool.name, pool.metrics);
    add(DIRECT_POOL_LABEL, source.slots().direct);
    this.histogram = histogram;
    this.summary = summary;
  }

  histogramSamples(): Values {
    // Rendered first of the two: it takes the scrape's one reading.
    this.read();
    return this.histogram;
  }

  summarySamples(): Values {
    return this.summary;
  }
}

export function registerDuration(registry: Registry, source: SeriesSource): void {
  const families = new DurationFamilies(source);
  registerSampleFamily(registry, REQUEST_DURATION_SECONDS, 'histogram', () => families.histogramSamples());
  registerSampleFamily(registry, REQUEST_DURATION_WINDOW_SECONDS, 'summary', () => families.summarySamples());
}
