// A hook over a unix socket: one persistent connection per hook (per thread), frames as in
// wire.ts, requests multiplexed by id. It connects on first use, and after the hook goes away
// it reconnects with a capped backoff; on every (re)connect it first sends `configure` with the
// desired settings, so a hook that restarted runs what the registry says.
import { connect, type Socket } from 'node:net';
import { HookFailure, TransportBase } from './transport.js';
import { encodeFrame, FrameReader, replyHeader, type HookReply, type HookRequest } from './wire.js';

const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 2_000;
/** Bytes queued in user space (written, not yet taken by the kernel) past which further taps are
 * shed. The kernel's own socket buffer (about 200 KiB) absorbs bursts first; a bigger queue here
 * would only keep thousands of small frames alive, into the old generation, for a hook that is
 * behind anyway. */
const TAP_QUEUE_BYTES = 64 * 1024;

export interface SocketTransportOptions {
  /** Sent first on each connection (null: nothing). */
  greeting: () => { settings: Record<string, unknown>; settings_version: number } | null;
  /** Reconnect in the background after a drop (off for one-shot clients such as hook-test). */
  reconnect: boolean;
}

export class SocketTransport extends TransportBase {
  private socket: Socket | null = null;
  private connected = false;
  private closed = false;
  private backoffMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly reader = new FrameReader();
  /** Writes of one loop turn go out together: corked at the first, uncorked at setImmediate. */
  private corked: Socket | null = null;
  private readonly uncork = (): void => {
    const socket = this.corked;
    this.corked = null;
    socket?.uncork();
  };

  constructor(
    hookName: string,
    readonly path: string,
    private readonly options: SocketTransportOptions,
  ) {
    super(hookName);
  }

  /** True while a connection is up. */
  get isConnected(): boolean {
    return this.connected;
  }

  protected write(message: HookRequest, awaitReply: boolean): boolean {
    if (this.closed) return false;
    const socket = this.ensureSocket();
    if (!awaitReply) {
      // A tap waits for nobody: shed it while the hook is away or behind.
      if (!this.tapRoom(socket)) return false;
      this.put(socket, encodeFrame(message));
      return true;
    }
    // Written before the connect completes, it is sent once it does (net buffers it).
    this.put(socket, encodeFrame(message));
    return true;
  }

  /** Under load many requests ask the hook in one loop turn (each request is its own uWS
   * callback, so a nextTick would flush after every one): one writev at the turn's check phase
   * for all of them, not a syscall each. The frames leave before the loop next polls. */
  private put(socket: Socket, frame: Buffer): void {
    if (this.corked !== socket) {
      this.corked?.uncork();
      this.corked = socket;
      socket.cork();
      setImmediate(this.uncork);
    }
    socket.write(frame);
  }

  acceptsTaps(): boolean {
    if (this.closed) return false;
    if (this.socket === null) {
      // Not connected yet: start to, unless a reconnect is already waiting out its backoff.
      if (this.reconnectTimer === null) this.ensureSocket();
      return false;
    }
    return this.tapRoom(this.socket);
  }

  private tapRoom(socket: Socket): boolean {
    return this.connected && socket.writableLength < TAP_QUEUE_BYTES;
  }

  /** Connect now (the registry warms connections up at boot). */
  warm(): void {
    if (!this.closed) this.ensureSocket();
  }

  close(): void {
    this.closed = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.socket?.destroy();
    this.socket = null;
    this.failAll(new HookFailure(this.hookName, 'unreachable', 'the transport was closed'));
  }

  private ensureSocket(): Socket {
    if (this.socket !== null) return this.socket;
    const socket = connect(this.path);
    this.socket = socket;
    this.connected = false;
    this.reader.reset();
    socket.setNoDelay?.(true);
    socket.on('connect', () => {
      this.connected = true;
      this.backoffMs = RECONNECT_MIN_MS;
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {
      /* 'close' follows and handles it */
    });
    socket.on('close', () => this.onClose(socket));
    const greeting = this.options.greeting();
    if (greeting !== null) socket.write(encodeFrame({ type: 'configure', id: 0, ...greeting }));
    return socket;
  }

  private onData(chunk: Buffer): void {
    let messages: unknown[];
    try {
      messages = this.reader.push(chunk);
    } catch {
      this.socket?.destroy(); // a broken stream: start over on a fresh connection
      return;
    }
    for (const message of messages) {
      const header = replyHeader(message);
      if (header !== null && header.id !== 0) this.settle(header.id, message as HookReply);
    }
  }

  private onClose(socket: Socket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.connected = false;
    this.failAll(new HookFailure(this.hookName, 'unreachable', 'the connection closed'));
    if (this.closed || !this.options.reconnect || this.reconnectTimer !== null) return;
    const delayMs = this.backoffMs;
    this.backoffMs = Math.min(RECONNECT_MAX_MS, this.backoffMs * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closed && this.socket === null) this.ensureSocket();
    }, delayMs);
    this.reconnectTimer.unref();
  }
}
