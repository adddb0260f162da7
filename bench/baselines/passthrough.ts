// The baseline: a bare uWebSockets.js + undici pass-through with no gateway logic at all,
// written the fastest honest way, so the gateway's ratio to it is the price of everything the
// gateway does on top of moving bytes. What makes it fast and still correct:
// - undici `Pool.dispatch` with one handler object per request (no streams, no promises);
// - a non-stream response (Content-Length known) is gathered and sent with its headers in one
//   corked `end`, so uWS sends one Content-Length response in one write;
// - a stream is relayed chunk by chunk, each write corked; when uWS reports backpressure the
//   upstream is paused and resumed from `onWritable`;
// - `onAborted` marks the request and aborts the upstream request.
//
// Run: node dist/bench/baselines/passthrough.js --listen 127.0.0.1:PORT --upstream http://127.0.0.1:MOCK [--threads N]
// With --threads N the main thread and N-1 worker threads each run a uWS app on the same port.
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { STATUS_CODES } from 'node:http';
import { parseArgs } from 'node:util';
import { Worker, isMainThread } from 'node:worker_threads';
import { Pool, type Dispatcher } from 'undici';
import uWS, { type HttpRequest, type HttpResponse } from '../../src/shared/uws.js';

interface PassthroughOptions {
  host: string;
  port: number;
  upstream: string;
  threads: number;
  /** Upstream connections per thread (bounded, like any real pool). */
  connections: number;
}

/** Largest non-stream body gathered for a single `end`; a bigger one is relayed as a stream. */
const GATHER_LIMIT_BYTES = 1 << 20;

// Headers that describe one hop, not the message; uWS and undici write their own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'date']);

type ResponseHeaders = Record<string, string | string[] | undefined>;

const STATUS_LINES: string[] = [];
for (const code of Object.keys(STATUS_CODES)) STATUS_LINES[Number(code)] = `${code} ${STATUS_CODES[code]}`;

class RelayHandler implements Dispatcher.DispatchHandler {
  aborted = false;
  private controller: Dispatcher.DispatchController | null = null;
  private statusLine = '';
  private headers: ResponseHeaders = {};
  /** Content-Length of the upstream body, or -1 when it streams. */
  private gatherBytes = -1;
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  private headWritten = false;

  constructor(private readonly res: HttpResponse) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.aborted) controller.abort(new Error('client went away'));
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders): void {
    this.statusLine = STATUS_LINES[statusCode] ?? `${statusCode} Unknown`;
    this.headers = headers;
    const length = Number(headers['content-length']);
    this.gatherBytes = Number.isInteger(length) && length >= 0 && length <= GATHER_LIMIT_BYTES ? length : -1;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.aborted) return;
    if (this.gatherBytes >= 0) {
      this.gathered.push(chunk);
      this.gatheredBytes += chunk.length;
      return;
    }
    let writable = true;
    this.res.cork(() => {
      this.writeHead();
      writable = this.res.write(chunk);
    });
    if (!writable) {
      controller.pause();
      this.res.onWritable(() => {
        controller.resume();
        return true;
      });
    }
  }

  onResponseEnd(): void {
    if (this.aborted) return;
    this.res.cork(() => {
      this.writeHead();
      if (this.gatherBytes < 0) this.res.end();
      else this.res.end(this.gathered.length === 1 ? this.gathered[0] : Buffer.concat(this.gathered, this.gatheredBytes));
    });
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    if (this.headWritten) {
      // Mid-stream there is no way to report an error but to cut the connection.
      this.res.close();
      return;
    }
    this.res.cork(() => {
      this.res.writeStatus('502 Bad Gateway').writeHeader('content-type', 'text/plain').end(`upstream error: ${err.message}`);
    });
  }

  clientAborted(): void {
    this.aborted = true;
    this.controller?.abort(new Error('client went away'));
  }

  private writeHead(): void {
    if (this.headWritten) return;
    this.headWritten = true;
    this.res.writeStatus(this.statusLine);
    const headers = this.headers;
    for (const name in headers) {
      if (HOP_BY_HOP.has(name)) continue;
      const value = headers[name];
      if (value === undefined) continue;
      if (typeof value === 'string') this.res.writeHeader(name, value);
      else for (const v of value) this.res.writeHeader(name, v);
    }
  }
}

function serve(opts: PassthroughOptions): void {
  const pool = new Pool(opts.upstream, { connections: opts.connections, pipelining: 1 });
  const app = uWS.App();
  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    // The request object dies when this callback returns: copy what is needed now.
    const method = req.getCaseSensitiveMethod();
    const query = req.getQuery();
    const path = query ? `${req.getUrl()}?${query}` : req.getUrl();
    const headers: string[] = [];
    req.forEach((name, value) => {
      if (!HOP_BY_HOP.has(name)) headers.push(name, value);
    });
    const hasBody = req.getHeader('content-length') !== '' || req.getHeader('transfer-encoding') !== '';
    const handler = new RelayHandler(res);
    res.onAborted(() => handler.clientAborted());
    if (!hasBody) {
      pool.dispatch({ method: method as Dispatcher.HttpMethod, path, headers, body: null }, handler);
      return;
    }

    let parts: Buffer[] | null = null;
    res.onData((chunk, isLast) => {
      // uWS recycles the chunk after this callback: copy it.
      const copy = Buffer.from(chunk.slice(0));
      if (!isLast) {
        (parts ??= []).push(copy);
        return;
      }
      if (handler.aborted) return;
      const body = parts === null ? copy : Buffer.concat([...parts, copy]);
      pool.dispatch({ method: method as Dispatcher.HttpMethod, path, headers, body: body.length > 0 ? body : null }, handler);
    });
  });
  app.listen(opts.host, opts.port, (socket) => {
    if (socket === false) {
      process.stderr.write(`passthrough: cannot listen on ${opts.host}:${opts.port}\n`);
      process.exit(1); // in a worker thread this ends the thread, and the main thread exits on that
    }
    if (isMainThread)
      process.stdout.write(`passthrough listening on ${opts.host}:${opts.port} -> ${opts.upstream} (${opts.threads} thread${opts.threads === 1 ? '' : 's'})\n`);
  });
}

function parsePassthroughArgs(argv: string[]): PassthroughOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string' },
      upstream: { type: 'string' },
      threads: { type: 'string', default: '1' },
      connections: { type: 'string', default: '256' },
    },
    strict: true,
  });
  const listen = /^(127\.0\.0\.1|localhost):(\d+)$/.exec(values.listen ?? '');
  if (listen === null) throw new Error('--listen must be 127.0.0.1:PORT');
  if (values.upstream === undefined || !/^http:\/\/(127\.0\.0\.1|localhost):\d+\/?$/.test(values.upstream)) {
    throw new Error('--upstream must be http://127.0.0.1:PORT');
  }
  const threads = Number(values.threads);
  const connections = Number(values.connections);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new Error('--threads must be an integer from 1 to 64');
  if (!Number.isInteger(connections) || connections < 1) throw new Error('--connections must be a positive integer');
  return { host: '127.0.0.1', port: Number(listen[2]), upstream: values.upstream, threads, connections };
}

function main(): void {
  let opts: PassthroughOptions;
  try {
    opts = parsePassthroughArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`passthrough: ${(err as Error).message}\n`);
    process.exit(2);
  }
  if (isMainThread) {
    // Exit normally when stopped, so that node's exit-time work runs (a --cpu-prof profile).
    process.on('SIGTERM', () => process.exit(0));
    // Each extra thread re-runs this file; worker argv mirrors ours.
    for (let i = 1; i < opts.threads; i++) {
      const worker = new Worker(new URL(import.meta.url), { argv: process.argv.slice(2) });
      // A thread that cannot serve makes the whole baseline invalid: stop loudly.
      worker.on('error', (err) => {
        process.stderr.write(`passthrough: thread ${i} failed: ${err.message}\n`);
        process.exit(1);
      });
      worker.on('exit', (code) => {
        if (code !== 0) process.exit(1);
      });
    }
  }
  serve(opts);
}

main();
