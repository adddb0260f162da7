// The worker's side of the Responses API state: each store operation is posted to main
// (responses-req) and answered by a promise that main's responses-res settles, so a worker
// never waits on the store. Bounded: past PENDING_MAX calls in flight, or after TIMEOUT_MS,
// a call answers not-ok at once instead of queueing without end.
import type { MessagePort } from 'node:worker_threads';
import { encodeMessage } from '../../shared/messages.js';
import type { ResponsesOp, ResponsesResult } from '../../shared/responses/stored-response.js';

const TIMEOUT_MS = 10_000;
const PENDING_MAX = 10_000;

export class ResponseStateClient {
  private nextId = 1;
  private readonly pending = new Map<number, (result: ResponsesResult) => void>();

  constructor(
    private readonly port: Pick<MessagePort, 'postMessage'>,
    private readonly workerId: number,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  call(op: ResponsesOp): Promise<ResponsesResult> {
    if (this.pending.size >= PENDING_MAX) {
      return Promise.resolve({ ok: false, error: 'unavailable', message: 'too many responses state calls in flight' });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ ok: false, error: 'timeout', message: 'the responses state store did not answer in time' });
      }, this.timeoutMs);
      this.pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.port.postMessage(encodeMessage({ t: 'responses-req', workerId: this.workerId, id, op }));
    });
  }

  /** main's responses-res (a late one, after its call timed out, is dropped). */
  settle(id: number, result: ResponsesResult): void {
    const done = this.pending.get(id);
    this.pending.delete(id);
    done?.(result);
  }

  /** Calls waiting for main. */
  get inFlight(): number {
    return this.pending.size;
  }
}
