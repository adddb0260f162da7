// Usage the workers metered, summed per (UTC day, pool, lane, provider) and per (UTC day, key,
// model, provider) on the main thread, and flushed to the store on an interval and at
// shutdown. A crash loses at most one flush interval of usage (plus the workers' own batching
// interval).
// Each flush is a batch with an id (this run's stream + seq). A batch that failed is kept whole
// and retried with the same id before anything newer: when the store did commit it but the reply
// was lost, the store skips it, so usage is counted exactly once. Rows metered meanwhile wait in
// `pending` (summed per key, so memory stays bounded by the distinct keys, not the outage length).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { WorkerToMain } from '../../shared/messages.js';
import type { FlushBatch, KeyUsageRow, Store, UsageRow } from '../store/store.js';
import { accumulateKeyUsage, accumulateUsage, keyUsageKey, usageKey } from '../store/store.js';

interface Unsent<R> {
  batch: FlushBatch;
  rows: R[];
}

export class UsageLedger {
  private pending = new Map<string, UsageRow>();
  private pendingByKey = new Map<string, KeyUsageRow>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly run = randomUUID();
  private seq = 0;
  private unsent: Unsent<UsageRow> | null = null;
  private unsentByKey: Unsent<KeyUsageRow> | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  startFlushing(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  add(msg: Extract<WorkerToMain, { t: 'usage' }>): void {
    for (const r of msg.records) {
      const key = usageKey(r);
      const row = this.pending.get(key);
      if (row === undefined) this.pending.set(key, r);
      else accumulateUsage(row, r);
    }
    for (const r of msg.keyRecords ?? []) {
      const key = keyUsageKey(r);
      const row = this.pendingByKey.get(key);
      if (row === undefined) this.pendingByKey.set(key, r);
      else accumulateKeyUsage(row, r);
    }
  }

  /** Write what accumulated (on the interval, at shutdown, and before a usage read); on failure
   * the batch is kept and retried, same id, next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.unsent === null && this.pending.size > 0) {
        this.unsent = { batch: { stream: `${this.run}/usage`, seq: ++this.seq }, rows: [...this.pending.values()] };
        this.pending = new Map();
      }
      const unsent = this.unsent;
      if (unsent !== null) {
        try {
          await this.store.addUsage(unsent.rows, unsent.batch);
          this.unsent = null;
        } catch (err) {
          this.log.error({ err: (err as Error).message, rows: unsent.rows.length, batch: unsent.batch.seq }, 'usage flush failed; retrying the same batch next flush');
        }
      }
      if (this.unsentByKey === null && this.pendingByKey.size > 0) {
        this.unsentByKey = { batch: { stream: `${this.run}/key-usage`, seq: ++this.seq }, rows: [...this.pendingByKey.values()] };
        this.pendingByKey = new Map();
      }
      const unsentByKey = this.unsentByKey;
      if (unsentByKey !== null) {
        try {
          await this.store.addKeyUsage(unsentByKey.rows, unsentByKey.batch);
          this.unsentByKey = null;
        } catch (err) {
          this.log.error({ err: (err as Error).message, rows: unsentByKey.rows.length, batch: unsentByKey.batch.seq }, 'per-key usage flush failed; retrying the same batch next flush');
        }
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
