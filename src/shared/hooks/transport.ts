// What every hook transport offers, and the part they share: request ids, the table of
// requests awaiting their reply, per-request deadlines, and the count of taps shed because the
// hook could not keep up. A subclass only moves bytes (socket-transport.ts, webhook-transport.ts).
import type { HookReply, HookRequest } from './wire.js';

/** Why a request got no usable answer; `on_error` applies to both. */
export class HookFailure extends Error {
  constructor(
    readonly hook: string,
    readonly reason: 'timeout' | 'unreachable' | 'error',
    detail: string,
  ) {
    super(`hook "${hook}": ${detail}`);
  }
}

/** A request without its id: the transport numbers it. */
export type OutgoingHookRequest = HookRequest extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

export interface HookTransport {
  readonly hookName: string;
  /** Send and wait for the reply with the same id, at most `timeoutMs`. */
  request(message: OutgoingHookRequest, timeoutMs: number): Promise<HookReply>;
  /** Fire-and-forget (taps): false when the hook's queue is full and the message was shed. */
  send(message: OutgoingHookRequest): boolean;
  /** True when a tap sent now would be taken (the hook is reachable and its queue has room). */
  acceptsTaps(): boolean;
  /** Count a tap the caller shed without building it (acceptsTaps() was false). */
  shedTap(): void;
  /** Taps shed so far because the queue was full or the hook was unreachable. */
  readonly dropped: number;
  /** Called once per shed tap as well (the worker counts gateway_hook_taps_shed_total there); null: nothing. */
  onShed: (() => void) | null;
  close(): void;
}

interface Pending {
  resolve(reply: HookReply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** The message with its id, set in place: every caller hands over a fresh object, so no copy
 * per gate request or tap event. */
function numbered(message: OutgoingHookRequest, id: number): HookRequest {
  (message as { id?: number }).id = id;
  return message as HookRequest;
}

export abstract class TransportBase implements HookTransport {
  dropped = 0;
  onShed: (() => void) | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(readonly hookName: string) {}

  /** Hand one numbered message to the wire; `awaitReply` false for taps. Returns false when shed. */
  protected abstract write(message: HookRequest, awaitReply: boolean): boolean;
  abstract acceptsTaps(): boolean;
  abstract close(): void;

  shedTap(): void {
    this.dropped++;
    this.onShed?.();
  }

  request(message: OutgoingHookRequest, timeoutMs: number): Promise<HookReply> {
    const id = this.takeId();
    return new Promise<HookReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HookFailure(this.hookName, 'timeout', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      if (!this.write(numbered(message, id), true)) this.fail(id, new HookFailure(this.hookName, 'unreachable', 'the hook is not reachable'));
    });
  }

  send(message: OutgoingHookRequest): boolean {
    const sent = this.write(numbered(message, this.takeId()), false);
    if (!sent) this.shedTap();
    return sent;
  }

  /** A reply arrived: settle the request it answers (a late or unknown id is ignored). */
  protected settle(id: number, reply: HookReply): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (reply.type === 'error') entry.reject(new HookFailure(this.hookName, 'error', `answered an error: ${String(reply.message).slice(0, 200)}`));
    else entry.resolve(reply);
  }

  protected fail(id: number, err: Error): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.reject(err);
  }

  /** The connection went away: every request waiting on it fails now, not at its deadline. */
  protected failAll(err: Error): void {
    for (const id of [...this.pending.keys()]) this.fail(id, err);
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId = id >= 0x7fffffff ? 1 : id + 1;
    return id;
  }
}
