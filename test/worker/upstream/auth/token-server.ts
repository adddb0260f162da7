// A stand-in identity provider for the token-minting tests: a real HTTP token endpoint on
// 127.0.0.1 (port 0) that records each form it receives and answers with what the test says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';

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

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
