// This worker's trace export: an OpenTelemetry SDK tracer provider with the OTLP/HTTP exporter
// behind a shedding batch processor, made for the config's `module: otlp` settings and made again
// (the old one flushed and shut down) when an apply changes them. The request path touches it
// twice: beginTrace when a request starts (only when the config traces: one pointer check
// otherwise) and endTrace when it ends, which builds the spans from the request's summary.
import { readFileSync } from 'node:fs';
import { BasicTracerProvider, AlwaysOnSampler } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Tracer } from '@opentelemetry/api';
import type { CompiledConfig, CompiledTracing } from '../../shared/config/compiled.js';
import type { SharedState } from '../../shared/sab/index.js';
import type { SpanDropReason } from '../../shared/metrics/catalog.js';
import { PresetIdGenerator, buildSpans } from './span-builder.js';
import type { RequestTrace } from './request-trace.js';
import type { RequestSummary } from './request-summary.js';
import { SheddingSpanProcessor } from './shedding-span-processor.js';

const SCOPE = 'llm-gateway';

/** service.version: the package's (read when the first export is made). */
let serviceVersion: string | null = null;
function packageVersion(): string {
  serviceVersion ??= (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return serviceVersion;
}

interface Export {
  key: string;
  provider: BasicTracerProvider;
  tracer: Tracer;
  ids: PresetIdGenerator;
}

class WorkerTracer {
  private current: Export | null = null;
  private settings: CompiledTracing | null = null;
  /** Where drops are counted: the shared counters of the config in force. */
  private shared: SharedState | null = null;
  private droppedSlots: readonly number[] = [];

  /** The export for `config` (made or remade when its settings changed since the last call). */
  private exportFor(shared: SharedState, config: CompiledConfig, tracing: CompiledTracing): Export {
    this.shared = shared;
    this.droppedSlots = config.metrics.traceSpansDropped;
    if (this.settings === tracing && this.current !== null) return this.current;
    this.settings = tracing;
    const key = JSON.stringify(tracing);
    if (this.current !== null && this.current.key === key) return this.current;
    const old = this.current;
    this.current = this.make(key, tracing);
    // The old provider sends what it holds, then stops; its errors are counted by its processor.
    if (old !== null) void old.provider.shutdown().catch(() => undefined);
    return this.current;
  }

  private make(key: string, tracing: CompiledTracing): Export {
    const exporter = new OTLPTraceExporter({ url: tracing.endpoint, headers: { ...tracing.headers }, timeoutMillis: tracing.timeoutMs });
    const processor = new SheddingSpanProcessor(
      exporter,
      { maxQueueSpans: tracing.maxQueueSpans, maxBatchSpans: tracing.maxBatchSpans, flushIntervalMs: tracing.flushIntervalMs },
      (reason, n) => this.countDropped(reason, n),
    );
    const ids = new PresetIdGenerator();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: tracing.serviceName, [ATTR_SERVICE_VERSION]: packageVersion() }),
      // Sampling is decided when the request starts (beginTrace): every span made here is kept.
      sampler: new AlwaysOnSampler(),
      idGenerator: ids,
      spanProcessors: [processor],
    });
    return { key, provider, tracer: provider.getTracer(SCOPE), ids };
  }

  private countDropped(reason: SpanDropReason, n: number): void {
    const slot = this.droppedSlots[reason];
    if (this.shared !== null && slot !== undefined) this.shared.metrics.counterAdd(slot, n);
  }

  /** The request's spans, built from its summary and queued for export. */
  end(shared: SharedState, config: CompiledConfig, trace: RequestTrace, summary: RequestSummary): void {
    const tracing = config.tracing;
    if (tracing === null) return; // an apply turned tracing off while the request ran
    const e = this.exportFor(shared, config, tracing);
    try {
      buildSpans(e.tracer, e.ids, trace, summary);
    } catch {
      // A span that cannot be built is lost, never the request's answer.
    }
  }

  /** Sends everything queued (tests, shutdown). */
  async flush(): Promise<void> {
    await this.current?.provider.forceFlush();
  }
}

/** This worker thread's tracer. */
export const workerTracer = new WorkerTracer();

/** The request's end: its spans (only for a request beginTrace sampled). */
export function endTrace(shared: SharedState, config: CompiledConfig, trace: RequestTrace, summary: RequestSummary): void {
  workerTracer.end(shared, config, trace, summary);
}
