// The baseline must be an honest pass-through, or its ratio means nothing: bodies, status,
// headers and streams arrive intact, a dead upstream is a 502, and a client that goes away
// aborts the upstream request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../bench/targets/free-port.js';

const PASSTHROUGH = fileURLToPath(new URL('../../../bench/baselines/passthrough.js', import.meta.url));

let upstream: Server;
let upstreamPort = 0;
let proxy: ChildProcess;
let proxyUrl = '';
let streamClosedEarly: Promise<void>;
let markStreamClosed: () => void = () => undefined;

function handle(req: IncomingMessage, res: ServerResponse): void {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    const body = Buffer.concat(parts).toString();
    if (req.url === '/json') {
      const out = JSON.stringify({ got: body, method: req.method, type: req.headers['content-type'] });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    } else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const tick = (): void => {
        if (i === 20) return void res.end('data: [DONE]\n\n');
        res.write(`data: ${i++}\n\n`);
        setImmediate(tick);
      };
      tick();
    } else if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      const timer = setInterval(() => res.write('data: more\n\n'), 5);
      res.on('close', () => {
        clearInterval(timer);
        markStreamClosed();
      });
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`no ${req.method} ${req.url}`);
    }
  });
}

before(async () => {
  streamClosedEarly = new Promise((r) => (markStreamClosed = r));
  upstream = createServer(handle);
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamPort = (upstream.address() as { port: number }).port;
  const port = await freePort();
  proxy = spawn(process.execPath, [PASSTHROUGH, '--listen', `127.0.0.1:${port}`, '--upstream', `http://127.0.0.1:${upstreamPort}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('exit', (code) => reject(new Error(`passthrough exited ${code}`)));
    proxy.stdout!.once('data', () => resolve());
  });
  proxyUrl = `http://127.0.0.1:${port}`;
});

after(async () => {
  proxy.kill('SIGKILL');
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

test('a non-stream POST comes back whole: status, headers, body, Content-Length', async () => {
  const res = await fetch(`${proxyUrl}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('x-upstream'), 'yes');
  assert.ok(res.headers.get('content-length') !== null, 'sent with Content-Length, not chunked');
  const json = (await res.json()) as { got: string; method: string; type: string };
  assert.deepEqual({ got: json.got, method: json.method, type: json.type }, { got: '{"a":"é"}', method: 'POST', type: 'application/json' });
});

test('a stream is relayed complete and in order', async () => {
  const res = await fetch(`${proxyUrl}/stream`, { method: 'POST', body: '{}' });
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const expected = Array.from({ length: 20 }, (_, i) => `data: ${i}\n\n`).join('') + 'data: [DONE]\n\n';
  assert.equal(await res.text(), expected);
});

test('a GET without a body, with a query, passes through', async () => {
  const res = await fetch(`${proxyUrl}/missing?x=1`);
  assert.equal(res.status, 404);
  assert.equal(await res.text(), 'no GET /missing?x=1');
});

test('a client that goes away mid-stream aborts the upstream request', async () => {
  const ac = new AbortController();
  const res = await fetch(`${proxyUrl}/endless`, { method: 'POST', body: '{}', signal: ac.signal });
  const reader = res.body!.getReader();
  await reader.read();
  ac.abort();
  await Promise.race([streamClosedEarly, new Promise((_, reject) => setTimeout(() => reject(new Error('upstream never saw the abort')), 3000))]);
});

test('an upstream that is down is a 502', async () => {
  const port = await freePort();
  const lonely = spawn(process.execPath, [PASSTHROUGH, '--listen', `127.0.0.1:${port}`, '--upstream', `http://127.0.0.1:${await freePort()}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((r) => lonely.stdout!.once('data', r));
    const res = await fetch(`http://127.0.0.1:${port}/json`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 502);
    await res.arrayBuffer();
  } finally {
    lonely.kill('SIGKILL');
  }
});
