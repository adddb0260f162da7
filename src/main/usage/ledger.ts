// Usage the workers metered, summed per (UTC day, pool, lane, provider) and per (UTC day, key,
// model, provider) on the main thread, and flushed to the store on an interval and at
// shutdown. A crash loses at most one flush interval of usage (plus the workers' own batching
// interval).
import type { Logger } from '../../shared/log.js';
import type { WorkerToMain } from '../../shared/messages.js';
import type { KeyUsageRow, Store, UsageRow } from '../store/store.js';
import { accumulateKeyUsage, accumulateUsage, keyUsageKey, usageKey } from '../store/store.js';

export class UsageLedger {
  private pending = new Map<string, UsageRow>();
  private pendingByKey = new Map<string, KeyUsageRow>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

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
   * the rows are kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0 && this.pendingByKey.size === 0) return;
      const batch = this.pending;
      const keyBatch = this.pendingByKey;
      this.pending = new Map();
      this.pendingByKey = new Map();
      try {
        await this.store.addUsage([...batch.values()]);
      } catch (err) {
        this.keepKeyRows(keyBatch);
        this.log.error({ err: (err as Error).message, rows: batch.size }, 'usage flush failed; keeping the rows for the next flush');
        for (const [key, row] of batch) {
          const newer = this.pending.get(key);
          if (newer === undefined) this.pending.set(key, row);
          else accumulateUsage(newer, row);
        }
        return;
      }
      try {
        await this.store.addKeyUsage([...keyBatch.values()]);
      } catch (err) {
        this.log.error({ err: (err as Error).message, rows: keyBatch.size }, 'per-key usage flush failed; keeping the rows for the next flush');
        this.keepKeyRows(keyBatch);
      }
    });
    return this.flushing;
  }

  private keepKeyRows(batch: Map<string, KeyUsageRow>): void {
    for (const [key, row] of batch) {
      const newer = this.pendingByKey.get(key);
      if (newer === undefined) this.pendingByKey.set(key, row);
      else accumulateKeyUsage(newer, row);
    }
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
