// A histogram read from shared memory, as the samples prom-client formats: cumulative
// `_bucket` lines with `le`, then `_sum` and `_count`, since process start. Scrape time only.
import type { HistogramSnapshot } from '../../shared/sab/metric-series.js';
import type { Sample } from './sample-family.js';

function leLabel(bound: number): string {
  return bound === Infinity ? '+Inf' : String(bound);
}

/** Appends the samples of one series of `family` (labels without `le`) to `out`. */
export function pushHistogramSamples(out: Sample[], family: string, labels: Record<string, string>, snap: HistogramSnapshot): void {
  let cumulative = 0;
  for (let i = 0; i < snap.counts.length; i++) {
    cumulative += snap.counts[i]!;
    out.push({ metricName: `${family}_bucket`, labels: { ...labels, le: leLabel(i < snap.bounds.length ? snap.bounds[i]! : Infinity) }, value: cumulative });
  }
  out.push({ metricName: `${family}_sum`, labels, value: snap.sum });
  out.push({ metricName: `${family}_count`, labels, value: snap.count });
}
