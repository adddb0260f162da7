// Per-worker metering: each finished request's usage is batched and handed to the main
// thread (which owns the store) on an interval, so the request path never waits on I/O and
// never sends a message per request. The counters /metrics shows are bumped in shared memory
// at once (one atomic add), so every worker renders the same totals.
import type { MessagePort } from 'node:worker_threads';
import type { CompiledMetrics } from '../shared/config/compiled.js';
import { encodeMessage, type UsageRecord } from '../shared/messages.js';
import { translationIndex } from '../shared/metrics/catalog.js';
import type { ProtocolName, Usage } from '../shared/model/types.js';
import { ZERO_USAGE } from '../shared/model/types.js';
import type { SharedState } from '../shared/sab/index.js';
import type { LaneRuntime } from './runtime.js';

/** Upper bound on records held between flushes; past it the batch is flushed early. */
const BATCH_MAX = 4096;

export class Metering {
  private batch: UsageRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Series slots of the config in force; slots are stable across applies. */
  private series: CompiledMetrics | null = null;

  constructor(
    private readonly workerId: number,
    private readonly port: MessagePort,
    private readonly shared: SharedState,
    flushIntervalMs: number,
  ) {
    this.timer = setInterval(() => this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  /** Called with each applied config, before it serves a request. */
  useSeries(metrics: CompiledMetrics): void {
    this.series = metrics;
  }

  record(pool: string, lane: LaneRuntime, ingress: ProtocolName, usage: Usage | null, truncated: boolean): void {
    if (truncated) this.shared.metrics.counterAdd(this.series!.billingTruncated);
    this.batch.push({
      ts: Date.now(),
      pool,
      lane: lane.compiled.name,
      provider: lane.provider.compiled.name,
      ingress,
      usage: usage ?? ZERO_USAGE,
      truncated,
    });
    if (this.batch.length >= BATCH_MAX) this.flush();
  }

  translated(from: ProtocolName, to: ProtocolName): void {
    this.shared.metrics.counterAdd(this.series!.translations[translationIndex(from, to)]!);
  }

  /** Hand the batch to main; also called at drain so nothing metered is lost on shutdown. */
  flush(): void {
    if (this.batch.length === 0) return;
    const records = this.batch;
    this.batch = [];
    this.port.postMessage(encodeMessage({ t: 'usage', workerId: this.workerId, records }));
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
