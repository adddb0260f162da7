// One caller's response over uWS (types only from uWS: ingress.ts is the one file that imports
// it), and the end-of-turn flush that sends every response's queued bytes in one cork each.
// uWS's rules where they bite: after an asynchronous gap, writes happen inside cork; a
// completed response is never written again (uWS throws); bytes uWS holds back while an
// onWritable handler is registered need an empty cork to go out.
import type { HttpResponse } from '../shared/uws.js';
import { sendAnswer, sendRest, sendStream } from './corked-send.js';
import { idleSpin } from './loop/idle-spin.js';
import type { AbortListener, ClientResponse } from './pipeline/client.js';

/** Responses of this worker that have not finished or aborted (drain waits for 0). */
let inflight = 0;

/** Responses not yet finished (the in-flight limit, the drain). */
export function inflightResponses(): number {
  return inflight;
}

/**
 * Everything written during one turn of the event loop goes out together, at the turn's end:
 * `respond`, `write` and `end` queue the response, and the first of a turn schedules one
 * setImmediate (it runs once every I/O callback of the turn has), which sends each waiting
 * response's bytes in one cork, back to back. So an upstream read that carries several HTTP
 * chunks is one send to the caller, not one per chunk; a stream's last bytes and its end are
 * one send; and the turn's sends reach the clients in one burst, which wakes a sleeping reader
 * (its core idle) once per burst instead of once per response (docs/decisions/
 * 149-end-of-turn-sends.md).
 */
const waiting: UwsClientResponse[] = [];
let flushQueued = false;
function flushWaiting(): void {
  flushQueued = false;
  idleSpin.event();
  try {
    for (let i = 0; i < waiting.length; i++) waiting[i]!.sendQueued();
  } finally {
    waiting.length = 0; // a throw must not leave responses queued for a flush that never comes
  }
}

/** An empty cork: its uncork sends what uWS holds back for the socket. */
function sendHeldBytes(): void {}

/** What a queued response sends at the end of the turn besides its bytes. */
const enum Closing {
  /** Nothing: the stream goes on. */
  None,
  /** The stream's end (chunked). */
  End,
  /** A whole answer, with content-length. */
  Respond,
}

/** One caller's response, over uWS. */
export class UwsClientResponse implements ClientResponse {
  aborted = false;
  started = false;
  /** Set when the rest of the request body will not be read (over the cap). */
  closeOnEnd = false;
  /** Sent and counted out: nothing more is written. */
  private finished = false;
  /** How the response ends, once `end` or `respond` was called (it ends at the next flush). */
  private closing = Closing.None;
  /** In `waiting` for this turn's flush. */
  private queued = false;
  /** A stream's head, held until its first bytes; a whole answer's status and headers. */
  private headStatus = 0;
  private headHeaders: Record<string, string> | null = null;
  /** A whole answer's body (Closing.Respond). */
  private body: string | Uint8Array = '';
  private drainCb: (() => void) | null = null;
  private abortListener: AbortListener | null = null;
  /** Stream bytes queued this turn (null when none are waiting). */
  private pending: (string | Uint8Array)[] | null = null;
  /** The last send found the socket full: writes report it until uWS says it drained. */
  private full = false;

  constructor(private readonly res: HttpResponse) {
    inflight++;
  }

  /** Called by uWS when the connection closes early. */
  handleAborted(): void {
    this.aborted = true;
    this.finish();
    const listener = this.abortListener;
    this.abortListener = null;
    if (listener !== null) listener.onClientAbort();
  }

  // A response that was ended is never written again: uWS throws on a completed response, and
  // an error path (an abort after a translated stream was already ended) may still try.
  respond(status: number, headers: Record<string, string>, body: string | Uint8Array): void {
    if (this.aborted || this.closing !== Closing.None) return;
    this.started = true;
    this.headStatus = status;
    this.headHeaders = headers;
    this.body = body;
    this.close(Closing.Respond);
  }

  /**
   * The head is held back and written with the first bytes (or the end), in one cork: every
   * cork ends in a send, so a head written alone would cost a syscall and a packet of its own.
   */
  startStream(status: number, headers: Record<string, string>): void {
    if (this.aborted || this.closing !== Closing.None) return;
    this.started = true;
    this.headStatus = status;
    this.headHeaders = headers;
  }

  /**
   * Queues the bytes for this turn's send (see flushWaiting). False when the last send found the
   * socket full: the caller pauses its upstream and waits for `onDrain`.
   */
  write(chunk: string | Uint8Array | readonly Uint8Array[]): boolean {
    if (this.aborted || this.closing !== Closing.None) return true;
    const pending = this.pendingBytes();
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) pending.push(chunk);
    else for (const part of chunk) pending.push(part);
    return !this.full;
  }

  end(last?: string | Uint8Array): void {
    if (this.aborted || this.closing !== Closing.None) return;
    if (last !== undefined && last.length > 0) this.pendingBytes().push(last);
    this.close(Closing.End);
  }

  /** This turn's bytes, the response queued for the flush. */
  private pendingBytes(): (string | Uint8Array)[] {
    this.enqueue();
    return (this.pending ??= []);
  }

  /**
   * The response is complete from the caller's side: it goes out at the flush. An abort that
   * comes before then only stops the send; the exchange, already done, is not told.
   */
  private close(how: Closing): void {
    this.closing = how;
    this.abortListener = null;
    this.enqueue();
  }

  private enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    waiting.push(this);
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushWaiting);
    }
  }

  /** Sends what was queued this turn (a held-back head, the bytes, the end), in one cork nearly always (corked-send.ts). */
  sendQueued(): void {
    this.queued = false;
    const pending = this.pending;
    this.pending = null;
    if (this.aborted || this.finished) return;
    const head = this.headHeaders;
    this.headHeaders = null;
    if (this.closing === Closing.Respond) {
      const body = this.body;
      this.body = '';
      const rest = sendAnswer(this.res, this.headStatus, head!, body, this.closeOnEnd);
      if (rest === null) this.finish();
      else this.res.onWritable((offset) => this.sendRest(rest, offset));
      return;
    }
    const writable = sendStream(this.res, this.headStatus, head, pending, this.closing === Closing.End);
    if (this.closing !== Closing.None) {
      this.finish();
      return;
    }
    if (!writable && !this.full) {
      this.full = true;
      this.res.onWritable(() => this.drained()); // only on backpressure: no closure per request
    }
  }

  /** uWS: the socket has room again for a whole answer too long for one cork. */
  private sendRest(body: Uint8Array, offset: number): boolean {
    const [ok, done] = sendRest(this.res, body, offset);
    if (done) this.finish();
    return ok;
  }

  /**
   * uWS: the socket has room after a full send. uWS does not send the bytes it still holds
   * while an onWritable handler is registered (HttpContext's writable handler returns after
   * calling it), so an empty cork sends them now: else they would wait for the stream's next
   * write, however long the upstream takes to give it.
   */
  private drained(): boolean {
    if (!this.finished) this.res.cork(sendHeldBytes); // (uWS drops the handler at the end: a guard only)
    this.full = false;
    const cb = this.drainCb;
    this.drainCb = null;
    if (cb !== null) cb();
    return true;
  }

  /** Counts the request out of the in-flight total exactly once. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    inflight--;
  }

  /** `cb` once the socket has room again (at once when it already has). */
  onDrain(cb: () => void): void {
    if (!this.full) {
      cb();
      return;
    }
    this.drainCb = cb;
  }

  onAbort(listener: AbortListener): void {
    this.abortListener = listener;
  }
}
