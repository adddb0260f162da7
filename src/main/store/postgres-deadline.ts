// One postgres store operation (a statement or a transaction, the pool wait and the connect
// included), bounded as a whole by the connect/statement timeout: past it the caller gets
// StoreUnavailableError at once and the connection the operation holds has its socket
// destroyed, so a pending statement fails instead of its ROLLBACK waiting out a second timeout
// on the same dead socket (a blackholed store once took 12 s to answer an admin mint where the
// README says 5 s; docs/decisions/286-postgres-operation-deadline.md).
import type pg from 'pg';
import { StoreUnavailableError } from './store-unavailable.js';

/** What one bounded operation holds: its client, whose socket is destroyed when the deadline passes. */
export class OperationGuard {
  expired = false;
  private client: pg.PoolClient | null = null;

  /** Takes `client` for the operation; false when the deadline already passed (release it at once). */
  hold(client: pg.PoolClient): boolean {
    if (this.expired) return false;
    this.client = client;
    return true;
  }

  /** The deadline passed: end the client's socket, so its pending statement fails now. */
  expire(): void {
    this.expired = true;
    (this.client as unknown as { connection?: { stream?: { destroy(): void } } } | null)?.connection?.stream?.destroy();
  }
}

/** `work`, or StoreUnavailableError once `limitMs` passed (the work's connection destroyed). */
export function boundedOperation<T>(limitMs: number, work: (guard: OperationGuard) => Promise<T>): Promise<T> {
  const guard = new OperationGuard();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      guard.expire();
      reject(new StoreUnavailableError('postgres', new Error(`no answer within ${limitMs} ms`)));
    }, limitMs);
    work(guard).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
