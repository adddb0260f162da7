// The durable audit sink: the store's audit table, written by exactly one gateway process per
// store. The writer holds a lease row it renews; a second process that finds a live lease
// keeps its in-memory ring only (detached), and says so in the log; it stands by, trying the
// lease on the same cadence, and takes over when the writer's lease lapses (the writer died):
// it then writes its run's entries from its ring first, so its chain in the store is whole.
import process from 'node:process';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { Store } from '../store/store.js';
import type { AuditEntry } from './entry.js';

/** A lease not renewed for this long belongs to a process that is gone. */
const AUDIT_LEASE_TTL_MS = 15_000;
const RENEW_EVERY_MS = AUDIT_LEASE_TTL_MS / 3;

export class DurableAuditSink {
  /** This process's run: the durable log holds one chain per run, each starting at seq 1. */
  readonly runId = randomUUID();
  private attached = false;
  private renewTimer: NodeJS.Timeout | null = null;
  private standbyTimer: NodeJS.Timeout | null = null;
  /** The live writer when this process stands by (for /info). */
  writer: { pid: number; host: string } | null = null;
  /** This run's entries so far, oldest first (the ring), written on a takeover. */
  backlog: (() => AuditEntry[]) | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  get isAttached(): boolean {
    return this.attached;
  }

  /** Take the writer lease; false (and a log line) when another live process holds it. */
  async attach(): Promise<boolean> {
    if (!this.store.durableAudit) return false;
    let holder;
    try {
      holder = await this.store.acquireAuditWriter(this.runId, process.pid, AUDIT_LEASE_TTL_MS);
    } catch (err) {
      // A store that cannot take the lease now (busy, read-only) must not stop the gateway.
      this.log.error({ err: (err as Error).message }, 'audit: cannot take the durable writer lease; this process keeps its in-memory ring only');
      return false;
    }
    if (holder !== null) {
      this.log.warn(
        { store: this.store.module, writer_pid: holder.pid, writer_host: holder.host },
        'audit: another gateway process is the durable audit writer of this store; this process detaches its durable sink and keeps its in-memory ring only',
      );
      this.standBy(holder);
      return false;
    }
    this.becomeWriter();
    return true;
  }

  private becomeWriter(): void {
    this.attached = true;
    this.writer = null;
    this.renewTimer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.renewTimer.unref();
  }

  /** Try the lease on the renew cadence until the writer's lapses. */
  private standBy(holder: { pid: number; host: string }): void {
    this.writer = { pid: holder.pid, host: holder.host };
    if (this.standbyTimer !== null) return;
    this.standbyTimer = setInterval(() => void this.tryTakeOver(), RENEW_EVERY_MS);
    this.standbyTimer.unref();
  }

  private async tryTakeOver(): Promise<void> {
    const holder = await this.store.acquireAuditWriter(this.runId, process.pid, AUDIT_LEASE_TTL_MS).catch(() => undefined);
    if (holder === undefined) return;
    if (holder !== null) {
      this.writer = { pid: holder.pid, host: holder.host };
      return;
    }
    if (this.standbyTimer !== null) clearInterval(this.standbyTimer);
    this.standbyTimer = null;
    const previous = this.writer;
    this.becomeWriter();
    // The entries this run made while standing by, so the run's chain in the store starts at seq 1.
    const backlog = this.backlog?.() ?? [];
    for (const entry of backlog) this.append(entry);
    this.log.warn(
      { previous_writer_pid: previous?.pid, backlog: backlog.length },
      "audit: took over as the durable audit writer of this store (the previous writer's lease lapsed)",
    );
  }

  append(entry: AuditEntry): void {
    if (!this.attached) return;
    try {
      this.store.appendAudit(this.runId, entry);
    } catch (err) {
      this.log.error({ err: (err as Error).message, seq: entry.seq }, 'audit: the durable sink failed; the entry is in the ring only');
    }
  }

  async detach(): Promise<void> {
    if (this.renewTimer !== null) clearInterval(this.renewTimer);
    this.renewTimer = null;
    if (this.standbyTimer !== null) clearInterval(this.standbyTimer);
    this.standbyTimer = null;
    if (!this.attached) return;
    this.attached = false;
    await this.store.releaseAuditWriter(this.runId);
  }

  private async renew(): Promise<void> {
    const holder = await this.store.acquireAuditWriter(this.runId, process.pid, AUDIT_LEASE_TTL_MS).catch(() => null);
    if (holder === null) return;
    // Our lease lapsed (a stalled loop) and another process took it: one writer only.
    this.attached = false;
    if (this.renewTimer !== null) clearInterval(this.renewTimer);
    this.renewTimer = null;
    this.log.warn({ writer_pid: holder.pid }, 'audit: lost the durable writer lease to another process; detached the durable sink');
    this.standBy(holder);
  }
}
