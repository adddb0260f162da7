// gateway_trace_spans_dropped_total{reason}: spans the OTLP trace export shed (queue_full) or lost
// in a failed export (export_failed), counted by each worker's span processor into shared memory
// (src/worker/tracing/shedding-span-processor.ts). Both reasons are shown, zeros included.
import type { Registry } from 'prom-client';
import { scrapedCounter } from './scraped-family.js';
import { SPAN_DROP_REASONS, TRACE_SPANS_DROPPED_TOTAL } from '../../shared/metrics/catalog.js';
import type { SeriesSource } from './series-source.js';

export function registerTraceSpansDropped(registry: Registry, source: SeriesSource): void {
  scrapedCounter(registry, TRACE_SPANS_DROPPED_TOTAL, function () {
    this.reset();
    const slots = source.slots().traceSpansDropped;
    for (let r = 0; r < SPAN_DROP_REASONS.length; r++) this.inc({ reason: SPAN_DROP_REASONS[r]! }, source.shared.metrics.counterValue(slots[r]!));
  });
}
