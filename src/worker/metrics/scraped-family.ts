// A metric family whose values are read when /metrics is scraped (prom-client's `collect`): the
// catalog entry names it, gives its help and its labels; `collect` sets its values.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MetricFamily } from '../../shared/metrics/catalog.js';

export function scrapedCounter(registry: Registry, family: MetricFamily, collect: (this: Counter) => void): void {
  new Counter({ name: family.name, help: family.help, labelNames: family.labelNames, registers: [registry], collect });
}

export function scrapedGauge(registry: Registry, family: MetricFamily, collect: (this: Gauge) => void): void {
  new Gauge({ name: family.name, help: family.help, labelNames: family.labelNames, registers: [registry], collect });
}
