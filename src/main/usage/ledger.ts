// Usage the workers metered, summed per (UTC day, pool, lane, provider) and per (UTC day, key,
// model, provider) on the main thread, and written to the store by the governance flush
// (CounterSnapshots.save), together with the governance counters of the same cut: key rows
// carry the flush epoch their settle ran in (src/shared/sab/settle-gate.ts), and a cut closing
// epoch e takes exactly the rows of epochs up to e, once every worker has sealed them. So the
// counters and the usage the store holds after a crash are of the same requests. A crash loses
// at most one flush interval of both.
// Each write is a batch with an id (this run's stream + seq). A batch that was not written is
// kept whole and written again with the same id before anything newer: when the store did commit
// it but the reply was lost, the store skips it, so usage is counted exactly once. Rows metered
// meanwhile wait in `pending` (summed per key, so memory stays bounded by the distinct keys, not
// the outage length).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { WorkerToMain } from '../../shared/messages.js';
import type { FlushBatch, KeyUsageRow, Store, UsageRow } from '../store/store.js';
import { accumulateKeyUsage, accumulateUsage, keyUsageKey, usageKey } from '../store/store.js';

/** One batch to write: pool rows and key rows, each under its own id. */
export interface UsageBatch {
  usage: { batch: FlushBatch; rows: UsageRow[] };
  keyUsage: { batch: FlushBatch; rows: KeyUsageRow[] };
}

export class UsageLedger {
  private pending = new Map<string, UsageRow>();
  /** Key rows by the flush epoch they were settled in. */
  private pendingByEpoch = new Map<number, Map<string, KeyUsageRow>>();
  /** Per worker, the highest epoch whose key rows it has all sent. */
  private readonly sealed = new Map<number, number>();
  private readonly run = randomUUID();
  private seq = 0;
  /** Batches taken and not yet confirmed written, oldest first. */
  private unsent: UsageBatch[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  add(msg: Extract<WorkerToMain, { t: 'usage' }>): void {
    for (const r of msg.records) {
      const key = usageKey(r);
      const row = this.pending.get(key);
      if (row === undefined) this.pending.set(key, r);
      else accumulateUsage(row, r);
    }
    const rows = msg.keyRecords ?? [];
    if (rows.length > 0) {
      const epoch = msg.keyEpoch ?? -1;
      let byKey = this.pendingByEpoch.get(epoch);
      if (byKey === undefined) {
        byKey = new Map();
        this.pendingByEpoch.set(epoch, byKey);
      }
      for (const r of rows) {
        const key = keyUsageKey(r);
        const row = byKey.get(key);
        if (row === undefined) byKey.set(key, r);
        else accumulateKeyUsage(row, r);
      }
    }
    if (msg.sealedThrough !== undefined) this.sealed.set(msg.workerId, Math.max(this.sealed.get(msg.workerId) ?? -1, msg.sealedThrough));
  }

  /** A worker was restarted under `workerId`: what it sealed before is no longer news. */
  forgetWorker(workerId: number): void {
    this.sealed.delete(workerId);
  }

  /** Has every worker in `workers` sent all its key rows of epochs up to `epoch`? */
  sealedThrough(epoch: number, workers: readonly number[]): boolean {
    for (const id of workers) if ((this.sealed.get(id) ?? -1) < epoch) return false;
    return true;
  }

  /** Take the pool rows and the key rows of epochs up to `epoch` as a new batch (with any not written yet). */
  takeThrough(epoch: number): UsageBatch[] {
    const keyRows = new Map<string, KeyUsageRow>();
    for (const [e, byKey] of this.pendingByEpoch) {
      if (e > epoch) continue;
      for (const [key, r] of byKey) {
        const row = keyRows.get(key);
        if (row === undefined) keyRows.set(key, r);
        else accumulateKeyUsage(row, r);
      }
      this.pendingByEpoch.delete(e);
    }
    if (this.pending.size > 0 || keyRows.size > 0) {
      this.unsent.push({
        usage: { batch: { stream: `${this.run}/usage`, seq: ++this.seq }, rows: [...this.pending.values()] },
        keyUsage: { batch: { stream: `${this.run}/key-usage`, seq: ++this.seq }, rows: [...keyRows.values()] },
      });
      this.pending = new Map();
    }
    return this.unsent;
  }

  /** Write the batches taken, oldest first, each under its id; stops at a failure (kept, retried
   * with the same ids by the next write). */
  writeTaken(): Promise<void> {
    this.writing = this.writing.then(async () => {
      while (this.unsent.length > 0) {
        const b = this.unsent[0]!;
        try {
          await this.store.addUsage(b.usage.rows, b.usage.batch);
          await this.store.addKeyUsage(b.keyUsage.rows, b.keyUsage.batch);
        } catch (err) {
          this.log.error(
            { err: (err as Error).message, rows: b.usage.rows.length + b.keyUsage.rows.length, batch: b.keyUsage.batch.seq },
            'usage flush failed; retrying the same batch next flush',
          );
          return;
        }
        this.unsent.shift();
      }
    });
    return this.writing;
  }

  /** Take and write everything pending, sealed or not (no counters go with it). */
  flush(): Promise<void> {
    this.takeThrough(Number.MAX_SAFE_INTEGER);
    return this.writeTaken();
  }
}
