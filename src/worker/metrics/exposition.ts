// The Prometheus text a worker renders for GET /metrics: one prom-client Registry per worker,
// with one family per metric whose collect() reads shared memory at scrape time. Nothing is
// counted in prom-client itself, so every worker shows the process-wide totals.
// Adding a metric: a family in src/shared/metrics/catalog.ts, its slots at config compile
// (src/main/config/compile-metrics.ts), counting where it happens, a register* call here.
import { Registry } from 'prom-client';
import type { CompiledConfig } from '../../shared/config/compiled.js';
import type { SharedState } from '../../shared/sab/index.js';
import { registerBillingTruncated } from './billing-truncated.js';
import { registerDuration } from './duration.js';
import { registerGovernance, type GovernanceSource } from './governance.js';
import { registerHookTapsShed } from './hook-taps-shed.js';
import { registerLanes } from './lanes.js';
import { registerLatency } from './latency.js';
import { registerLogsDropped } from './logs-dropped.js';
import { registerRequests } from './requests.js';
import { registerReservations } from './reservations.js';
import { registerRoutePolicy } from './route-policy.js';
import { registerThreadRuntime } from './thread-runtime.js';
import { registerTraceSpansDropped } from './trace-spans-dropped.js';
import type { SeriesSource } from './series-source.js';
import { registerTranslations } from './translations.js';
import { registerTranslationsRefused } from './translations-refused.js';
import { registerUpstream } from './upstream.js';

export class MetricsExposition {
  private readonly registry = new Registry();
  private config: CompiledConfig | null = null;
  private scrapeMs = 0;

  constructor(shared: SharedState, governance: GovernanceSource | null = null) {
    const source: SeriesSource = { shared, slots: () => this.config!.metrics, config: () => this.config!, nowMs: () => this.scrapeMs };
    registerRequests(this.registry, source);
    registerUpstream(this.registry, source);
    registerDuration(this.registry, source);
    registerLatency(this.registry, source);
    registerTranslations(this.registry, source);
    registerTranslationsRefused(this.registry, source);
    registerLanes(this.registry, source);
    registerRoutePolicy(this.registry, source);
    registerLogsDropped(this.registry, source);
    registerBillingTruncated(this.registry, source);
    registerThreadRuntime(this.registry, source);
    registerHookTapsShed(this.registry, source);
    registerTraceSpansDropped(this.registry, source);
    registerReservations(this.registry, source);
    if (governance !== null) registerGovernance(this.registry, source, governance);
  }

  /** The exposition format's content type (text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every family, read from shared memory through the slots of `config`, at one instant. */
  render(config: CompiledConfig, nowMs = Date.now()): Promise<string> {
    // Slots are stable across applies, so a render racing an apply reads the same series.
    this.config = config;
    this.scrapeMs = nowMs;
    return this.registry.metrics();
  }
}
