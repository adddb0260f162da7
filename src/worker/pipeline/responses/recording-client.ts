// The caller's connection for a Responses request that is stored (`store` not false): every
// byte goes through as it is, and the Response answered -- a non-stream body, or a stream's
// response.completed event (shared/responses/completed-watcher.ts) -- is put in the store
// before the answer's last bytes go out, so the caller's next turn, on any worker or node,
// finds it. The wait is bounded (PUT_WAIT_MS_MAX) and never fails the answer: a response the
// store could not keep is answered all the same.
import { Buffer } from 'node:buffer';
import { isJsonObject, type JsonObject } from '../../../shared/protocols/framing/json-field.js';
import { CompletedResponseWatcher } from '../../../shared/responses/completed-watcher.js';
import { storedResponseOf } from '../../../shared/responses/record.js';
import type { AbortListener, ClientResponse } from '../client.js';
import type { RequestContext } from '../context.js';
import type { ResponsesState } from './state.js';

/**
 * How long the answer's last bytes wait for the store's put: past it the answer goes out and the
 * put goes on (a store that is slow or down delays an answer this much, not the state client's
 * whole timeout). Ordinarily the put answers in well under a millisecond (memory, sqlite) or one
 * round trip (postgres, valkey).
 */
const PUT_WAIT_MS_MAX = 2_000;

export class RecordingClient implements ClientResponse {
  private readonly watcher: CompletedResponseWatcher;

  constructor(
    private readonly inner: ClientResponse,
    private readonly ctx: RequestContext,
    private readonly state: ResponsesState,
    maxEventBytes: number,
  ) {
    this.watcher = new CompletedResponseWatcher(maxEventBytes);
  }

  get aborted(): boolean {
    return this.inner.aborted;
  }

  get started(): boolean {
    return this.inner.started;
  }

  get closeOnEnd(): boolean {
    return this.inner.closeOnEnd;
  }

  set closeOnEnd(v: boolean) {
    this.inner.closeOnEnd = v;
  }

  respond(status: number, headers: Record<string, string>, body: string | Uint8Array): void {
    const response = status === 200 ? parsedObject(body) : null;
    if (response === null) {
      this.inner.respond(status, headers, body);
      return;
    }
    this.store(response).then(() => this.inner.respond(status, headers, body));
  }

  startStream(status: number, headers: Record<string, string>): void {
    this.inner.startStream(status, headers);
  }

  write(chunk: string | Uint8Array | readonly Uint8Array[]): boolean {
    this.watcher.push(chunk);
    return this.inner.write(chunk);
  }

  end(last?: string | Uint8Array): void {
    if (last !== undefined) this.watcher.push(last);
    const response = this.watcher.result();
    if (response === null) {
      this.inner.end(last);
      return;
    }
    this.store(response).then(() => this.inner.end(last));
  }

  onDrain(cb: () => void): void {
    this.inner.onDrain(cb);
  }

  onAbort(listener: AbortListener): void {
    this.inner.onAbort(listener);
  }

  /** Puts the record; resolves when the store answered (whatever it said) or the call timed out. */
  private store(response: JsonObject): Promise<unknown> {
    const state = this.state;
    if (state.lane === null) return Promise.resolve();
    const record = storedResponseOf({
      request: state.body,
      response,
      keyId: this.ctx.keyId,
      lane: state.lane,
      upstreamId: state.laneKeepsState && typeof response.id === 'string' ? response.id : null,
      // main stamps the times with its own clock and the live TTL (response-state-service.ts).
      nowMs: 0,
      ttlMs: 0,
    });
    if (record === null) return Promise.resolve();
    const put = this.ctx.deps.responses.call({ kind: 'put', record });
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, PUT_WAIT_MS_MAX);
      put.then(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
}

function parsedObject(body: string | Uint8Array): JsonObject | null {
  try {
    const parsed: unknown = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    return isJsonObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
