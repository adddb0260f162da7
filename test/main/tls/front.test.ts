// The TLS front against fake worker sockets: ALPN, the three key formats, mTLS (no
// certificate, a certificate from another CA, a good one), plain HTTP on the TLS port,
// round-robin over workers, skipping a refused one and waiting for a late one. Also pins down
// why the front exists: this uWS build's SSLApp with a CA file lets a client without a
// certificate in, and negotiates no ALPN.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import uWS from '../../../src/shared/uws.js';
import { startTlsFront, type TlsFront, type TlsMaterial } from '../../../src/main/tls/front.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'tls');
const pem = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const CA = pem('ca.pem');
const SERVER: TlsMaterial = { cert: pem('server.pem'), key: pem('server-key.pem') };
const CLIENT = { cert: pem('client.pem'), key: pem('client-key.pem') };
/** Self-signed, so not signed by ca.pem. */
const STRANGER = { cert: pem('cert.pem'), key: pem('key.pem') };
const log = pino({ level: 'silent' });

interface Reply {
  status: number;
  body: string;
  alpn: string | false;
}

/** One HTTP/1.1 request on a fresh TLS connection. */
function get(port: number, extra: ConnectionOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: CA, servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'], ...extra }, () => {
      socket.write('GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
      if (status === 0) reject(new Error(`no HTTP response: ${JSON.stringify(text)}`));
      else resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), alpn: socket.alpnProtocol ?? false });
    });
  });
}

/** A fake worker: plain HTTP on a unix socket, answering with its name. */
function backend(path: string, name: string): Promise<Server> {
  const server = createServer((_req, res) => res.end(name));
  return new Promise((resolve) => server.listen(path, () => resolve(server)));
}

describe('TLS front', () => {
  let dir: string;
  const servers: Server[] = [];
  const fronts: TlsFront[] = [];
  const start = async (material: TlsMaterial, backends: string[]): Promise<TlsFront> => {
    const front = await startTlsFront({ host: '127.0.0.1', port: 0, material, backends, log });
    fronts.push(front);
    return front;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tls-front-test-'));
    servers.push(await backend(join(dir, 'a.sock'), 'a'), await backend(join(dir, 'b.sock'), 'b'));
  });
  after(() => {
    for (const front of fronts) front.close();
    for (const server of servers) server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with ALPN http/1.1 and spreads connections over the workers', async () => {
    const front = await start(SERVER, [join(dir, 'a.sock'), join(dir, 'b.sock')]);
    const replies = [await get(front.port), await get(front.port), await get(front.port)];
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 200, 200],
    );
    assert.deepEqual(
      replies.map((r) => r.alpn),
      ['http/1.1', 'http/1.1', 'http/1.1'],
    );
    assert.deepEqual(new Set(replies.map((r) => r.body)), new Set(['a', 'b']));
  });

  it('takes SEC1 and PKCS#1 (RSA) keys as well as PKCS#8', async () => {
    const sec1 = await start({ cert: SERVER.cert, key: pem('server-key.sec1.pem') }, [join(dir, 'a.sock')]);
    const rsa = await start({ cert: pem('server-rsa.pem'), key: pem('server-rsa-key.pkcs1.pem') }, [join(dir, 'a.sock')]);
    assert.equal((await get(sec1.port)).status, 200);
    assert.equal((await get(rsa.port)).status, 200);
  });

  it('answers nothing to plain HTTP on the TLS port', async () => {
    const front = await start(SERVER, [join(dir, 'a.sock')]);
    const text = await new Promise<string>((resolve) => {
      const socket = netConnect(front.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n'));
      let got = '';
      socket.on('data', (chunk) => (got += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(got));
    });
    assert.doesNotMatch(text, /HTTP\/1\.1 200/);
  });

  it('with a client CA: rejects no certificate and a stranger, serves a signed client, keeps serving', async () => {
    const front = await start({ ...SERVER, clientCa: CA }, [join(dir, 'a.sock')]);
    await assert.rejects(get(front.port));
    await assert.rejects(get(front.port, STRANGER));
    const ok = await get(front.port, CLIENT);
    assert.equal(ok.status, 200);
    assert.equal(ok.body, 'a');
    assert.equal((await get(front.port, CLIENT)).status, 200);
  });

  it('skips a worker socket that refuses and waits for a late one', async () => {
    const skipping = await start(SERVER, [join(dir, 'gone.sock'), join(dir, 'b.sock')]);
    for (let i = 0; i < 3; i++) assert.equal((await get(skipping.port)).body, 'b');

    const latePath = join(dir, 'late.sock');
    const waiting = await start(SERVER, [latePath]);
    const pending = get(waiting.port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    servers.push(await backend(latePath, 'late'));
    assert.equal((await pending).body, 'late');
  });

  /** A TLS connection fed `pieces` with `gapMs` between them; what came back and whether it closed. */
  function trickle(port: number, pieces: string[], gapMs: number): Promise<{ text: string; closedBeforeEnd: boolean }> {
    return new Promise((resolve, reject) => {
      let text = '';
      let fed = 0;
      const socket = tlsConnect({ host: '127.0.0.1', port, ca: CA, servername: 'localhost' }, () => {
        const next = (): void => {
          if (socket.destroyed) return;
          if (fed < pieces.length) {
            socket.write(pieces[fed++]!);
            setTimeout(next, gapMs);
          }
        };
        next();
      });
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ text, closedBeforeEnd: fed < pieces.length }));
      setTimeout(() => reject(new Error('neither answered nor closed')), 20_000).unref();
    });
  }

  it('header-read timeout: a head not whole in time is closed with no answer, and no worker connection is made (issue 46)', async () => {
    let accepted = 0;
    const path = join(dir, 'counting.sock');
    const counting = createServer((_req, res) => res.end('counted'));
    counting.on('connection', () => accepted++);
    await new Promise<void>((resolve) => counting.listen(path, () => resolve()));
    servers.push(counting);
    const front = await startTlsFront({ host: '127.0.0.1', port: 0, material: SERVER, backends: [path], log, headerReadTimeoutMs: 300 });
    fronts.push(front);
    const silent = await trickle(front.port, ['GET / HTTP/1.1\r\nhost: x\r\n'], 10);
    assert.equal(silent.text, '', 'closed, nothing answered');
    const slow = await trickle(front.port, 'GET / HTTP/1.1\r\nhost: x\r\nx-pad: aaaaaaaaaa\r\n\r\n'.split(''), 40);
    assert.equal(slow.text, '');
    assert.equal(slow.closedBeforeEnd, true, 'the slow head was cut off');
    assert.equal(accepted, 0, 'a slow head never reached a worker');
  });

  it('header-read timeout: a head that arrives in pieces within it is passed on whole, a blank line split across reads too (issue 46)', async () => {
    const front = await startTlsFront({ host: '127.0.0.1', port: 0, material: SERVER, backends: [join(dir, 'a.sock')], log, headerReadTimeoutMs: 5_000 });
    fronts.push(front);
    const pieces = ['GET / HTT', 'P/1.1\r\nhost: x\r\nconnection: close\r\n\r', '\n'];
    const reply = await trickle(front.port, pieces, 50);
    assert.match(reply.text, /^HTTP\/1\.1 200/);
    assert.match(reply.text, /\r\n\r\na$/);
  });

  it('is needed: this uWS build lets a client without a certificate in and negotiates no ALPN', async () => {
    const app = uWS.SSLApp({
      key_file_name: join(FIXTURES, 'server-key.pem'),
      cert_file_name: join(FIXTURES, 'server.pem'),
      ca_file_name: join(FIXTURES, 'ca.pem'),
    });
    app.get('/*', (res) => {
      res.end('uws');
    });
    const socket = await new Promise<Parameters<typeof uWS.us_socket_local_port>[0]>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (s) => (s === false ? reject(new Error('uWS did not listen')) : resolve(s as never))),
    );
    try {
      const reply = await get(uWS.us_socket_local_port(socket));
      assert.equal(reply.status, 200, 'if uWS now rejects this client, SSLApp may do and the front could go');
      assert.equal(reply.alpn, false);
    } finally {
      (app as typeof app & { close(): void }).close();
    }
  });
});
