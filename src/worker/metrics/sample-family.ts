// A metric family whose samples are built by the caller, in the shape prom-client's Registry
// formats (it calls get() and renders each value). For families too big or too shaped for
// prom-client's own classes: the duration histogram read from shared buckets, and the key
// gauges (10k series, where Gauge.set's per-series label hashing dominated a scrape).
import type { Metric, Registry } from 'prom-client';
import type { MetricFamily } from '../../shared/metrics/catalog.js';

/** One sample as prom-client's Registry formats it. */
export interface Sample {
  /** Defaults to the family name; histograms and summaries name _bucket, _sum, _count. */
  metricName?: string;
  labels: Record<string, string | number>;
  /** Labels whose formatted text prom-client caches per object (a stable object per series). */
  sharedLabels?: Record<string, string>;
  value: number;
}

export type FamilyType = 'counter' | 'gauge' | 'histogram' | 'summary';

/** Registers `family`; `samples()` is asked once per scrape, in registration order. */
export function registerSampleFamily(registry: Registry, family: MetricFamily, type: FamilyType, samples: () => Sample[]): void {
  const metric = {
    name: family.name,
    help: family.help,
    type,
    aggregator: 'sum',
    get() {
      return { name: family.name, help: family.help, type, aggregator: 'sum', values: samples() };
    },
  };
  registry.registerMetric(metric as unknown as Metric);
}
