// The Prometheus text a worker renders for GET /metrics: one prom-client Registry per worker,
// with one family per metric whose collect() reads shared memory at scrape time. Nothing is
// counted in prom-client itself, so every worker shows the process-wide totals.
// Adding a metric: a family in src/shared/metrics/catalog.ts, its slots at config compile
// (src/main/config/compile-metrics.ts), counting where it happens, a register* call here.
import { Registry } from 'prom-client';
import type { CompiledMetrics } from '../../shared/config/compiled.js';
import type { SharedState } from '../../shared/sab/index.js';
import { registerBillingTruncated } from './billing-truncated.js';
import { registerLogsDropped } from './logs-dropped.js';
import type { SeriesSource } from './series-source.js';
import { registerTranslations } from './translations.js';
import { registerTranslationsRefused } from './translations-refused.js';

export class MetricsExposition {
  private readonly registry = new Registry();
  private slots: CompiledMetrics | null = null;

  constructor(shared: SharedState) {
    const source: SeriesSource = { shared, slots: () => this.slots! };
    registerTranslations(this.registry, source);
    registerTranslationsRefused(this.registry, source);
    registerBillingTruncated(this.registry, source);
    registerLogsDropped(this.registry, source);
  }

  /** The exposition format's content type (text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every family, read from shared memory through the slots of `metrics`. */
  render(metrics: CompiledMetrics): Promise<string> {
    // Slots are stable across applies, so a render racing an apply reads the same series.
    this.slots = metrics;
    return this.registry.metrics();
  }
}
