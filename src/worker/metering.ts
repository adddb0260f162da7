// Per-worker metering: each finished request's usage is batched and handed to the main
// thread (which owns the store) on an interval, so the request path never waits on I/O and
// never sends a message per request.
import type { MessagePort } from 'node:worker_threads';
import { encodeMessage, type UsageRecord } from '../shared/messages.js';
import type { ProtocolName, Usage } from '../shared/model/types.js';
import { ZERO_USAGE } from '../shared/model/types.js';
import type { LaneRuntime } from './runtime.js';

/** Upper bound on records held between flushes; past it the batch is flushed early. */
const BATCH_MAX = 4096;

export class Metering {
  private batch: UsageRecord[] = [];
  private readonly translations = new Map<string, number>();
  private truncatedCount = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly workerId: number,
    private readonly port: MessagePort,
    flushIntervalMs: number,
  ) {
    this.timer = setInterval(() => this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  record(pool: string, lane: LaneRuntime, ingress: ProtocolName, usage: Usage | null, truncated: boolean): void {
    if (truncated) this.truncatedCount++;
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
    const key = `${from}>${to}`;
    this.translations.set(key, (this.translations.get(key) ?? 0) + 1);
  }

  /** Hand the batch to main; also called at drain so nothing metered is lost on shutdown. */
  flush(): void {
    if (this.batch.length === 0 && this.translations.size === 0 && this.truncatedCount === 0) return;
    const records = this.batch;
    this.batch = [];
    const translations = Object.fromEntries(this.translations);
    this.translations.clear();
    const truncated = this.truncatedCount;
    this.truncatedCount = 0;
    this.port.postMessage(encodeMessage({ t: 'usage', workerId: this.workerId, records, translations, truncated }));
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
