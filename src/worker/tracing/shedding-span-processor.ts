// A span processor that batches off the request path and sheds, counting what it drops: ended
// spans go into a bounded queue (pushing is all the request's end pays); a timer, or a full
// batch on the next turn, sends up to max_batch_spans to the exporter, one export in flight at
// a time. When the collector falls behind the queue fills, and spans past it are shed and
// counted (reason queue_full) rather than held: memory stays bounded and no request waits. A
// failed export's spans are counted too (export_failed). The SDK's BatchSpanProcessor sheds
// the same way but only logs the number, which an operator cannot alert on.
import { context } from '@opentelemetry/api';
import { ExportResultCode, suppressTracing, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SpanDropReason } from '../../shared/metrics/catalog.js';

export interface SheddingOptions {
  maxQueueSpans: number;
  maxBatchSpans: number;
  flushIntervalMs: number;
}

export class SheddingSpanProcessor implements SpanProcessor {
  private queue: ReadableSpan[] = [];
  private exporting = false;
  private soon = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  /** Resolvers of forceFlush calls waiting for the queue to drain. */
  private drained: (() => void)[] = [];

  constructor(
    private readonly exporter: SpanExporter,
    private readonly options: SheddingOptions,
    /** Adds `n` to gateway_trace_spans_dropped_total{reason}. */
    private readonly countDropped: (reason: SpanDropReason, n: number) => void,
  ) {
    this.timer = setInterval(() => this.flush(), options.flushIntervalMs);
    this.timer.unref();
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed) return;
    if (this.queue.length >= this.options.maxQueueSpans) {
      this.countDropped(SpanDropReason.QueueFull, 1);
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= this.options.maxBatchSpans && !this.soon) {
      this.soon = true;
      setImmediate(() => {
        this.soon = false;
        this.flush();
      });
    }
  }

  /** Sends what is queued now and resolves once the queue has drained (or an export failed). */
  forceFlush(): Promise<void> {
    if (this.queue.length === 0 && !this.exporting) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.drained.push(resolve));
    this.flush();
    return done;
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.closed = true;
    clearInterval(this.timer);
    await this.exporter.shutdown();
  }

  /** Sends one batch unless one is in flight; the export's end sends the next. */
  private flush(): void {
    if (this.exporting) return;
    if (this.queue.length === 0) {
      this.resolveDrained();
      return;
    }
    const batch = this.queue.length <= this.options.maxBatchSpans ? this.queue : this.queue.slice(0, this.options.maxBatchSpans);
    this.queue = batch === this.queue ? [] : this.queue.slice(batch.length);
    this.exporting = true;
    // The exporter's own HTTP request is never traced.
    context.with(suppressTracing(context.active()), () => {
      this.exporter.export(batch, (result: ExportResult) => this.exported(batch.length, result));
    });
  }

  private exported(spans: number, result: ExportResult): void {
    this.exporting = false;
    if (result.code !== ExportResultCode.SUCCESS) this.countDropped(SpanDropReason.ExportFailed, spans);
    if (this.queue.length >= this.options.maxBatchSpans || (this.drained.length > 0 && this.queue.length > 0)) this.flush();
    else if (this.queue.length === 0) this.resolveDrained();
  }

  private resolveDrained(): void {
    const waiting = this.drained;
    if (waiting.length === 0) return;
    this.drained = [];
    for (const resolve of waiting) resolve();
  }
}
