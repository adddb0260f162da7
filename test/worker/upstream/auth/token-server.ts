// A stand-in identity provider for the token-minting tests: a real HTTP token endpoint on
// 127.0.0.1 (port 0) that records each form it receives and answers with what the test says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';
import type { TokenTimers } from '../../../../src/worker/upstream/auth/minted-token-auth.js';

export interface TokenCall {
  atMs: number;
  contentType: string | undefined;
  form: URLSearchParams;
}

export interface TokenAnswer {
  status: number;
  body: unknown;
  delayMs?: number;
}

export class TokenServer {
  readonly calls: TokenCall[] = [];
  /** Answers written (a delayed answer counts once its delay is over, even to a closed socket). */
  answered = 0;
  #server: Server;
  #answer: (call: TokenCall, index: number) => TokenAnswer;
  url = '';

  constructor(answer: (call: TokenCall, index: number) => TokenAnswer) {
    this.#answer = answer;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const call: TokenCall = {
          atMs: Date.now(),
          contentType: req.headers['content-type'],
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        };
        this.calls.push(call);
        const a = this.#answer(call, this.calls.length - 1);
        const send = (): void => {
          this.answered++;
          res.writeHead(a.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(a.body));
        };
        if (a.delayMs) setTimeout(send, a.delayMs);
        else send();
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/oauth2/token`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A pino logger whose every line lands in `lines` (to check what is logged, and what is not). */
export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, sink), lines };
}

export async function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** TokenTimers that never fire on their own: the test sees each pending delay and fires it. */
export class ManualTimers implements TokenTimers {
  readonly #pending = new Set<PendingTimer>();

  start(fire: () => void, delayMs: number): unknown {
    const timer = { fire, delayMs };
    this.#pending.add(timer);
    return timer;
  }

  stop(timer: unknown): void {
    this.#pending.delete(timer as PendingTimer);
  }

  /** The pending delays, shortest first. */
  delays(): number[] {
    return [...this.#pending].map((t) => t.delayMs).sort((a, b) => a - b);
  }

  /** Fires the pending timer of `delayMs` (by default the shortest); returns its delay. */
  fire(delayMs: number = this.delays()[0] ?? Number.NaN): number {
    const timer = [...this.#pending].find((t) => t.delayMs === delayMs);
    if (timer === undefined) throw new Error(`no pending timer of ${delayMs} ms (pending: ${this.delays().join(', ') || 'none'})`);
    this.#pending.delete(timer);
    timer.fire();
    return delayMs;
  }
}

interface PendingTimer {
  fire: () => void;
  delayMs: number;
}
