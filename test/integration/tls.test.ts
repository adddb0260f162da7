// Inbound TLS through the real gateway process (2 workers) and the mock provider: HTTPS with
// ALPN http/1.1, plain HTTP refused on the TLS port, mTLS (no certificate rejected at the
// handshake, a signed client served, other connections unaffected), a recycled worker back
// behind the front, the private socket folder removed on a graceful stop, no PEM in the logs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import type { RunningGateway } from '../helpers/gateway.js';
import { startStack } from '../helpers/clients/stack.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'tls');
const pem = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const CA = pem('ca.pem');
const SERVER_KEY = pem('server-key.pem');
const CLIENT = { cert: pem('client.pem'), key: pem('client-key.pem') };

/** A POST through the default pool with its own connection pool (closed after). */
async function chat(gw: RunningGateway, connect: Record<string, unknown> = {}): Promise<{ status: number; body: string }> {
  const dispatcher = new Agent({ connect: { ca: CA, servername: 'localhost', ...connect } });
  try {
    const res = await request(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
      dispatcher,
    });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await dispatcher.close();
  }
}

/** The private socket folder, as the gateway logged it. */
function socketDir(gw: RunningGateway): string {
  const line = gw
    .logs()
    .split('\n')
    .find((l) => l.includes('data plane served over TLS'));
  assert.ok(line !== undefined, 'the TLS listener logs where its sockets are');
  return (JSON.parse(line) as { socket_dir: string }).socket_dir;
}

/** No PEM block, and no line of the key's body, in anything the process wrote. */
function assertNoPem(gw: RunningGateway): void {
  const logs = gw.logs();
  assert.doesNotMatch(logs, /-----BEGIN/);
  for (const line of SERVER_KEY.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'))) assert.ok(!logs.includes(line));
}

describe('inbound TLS', () => {
  let mock: MockServer;
  let plain: RunningGateway;
  let mtls: RunningGateway;

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    // The three forms a PEM may take: a path, a secret reference to an env var, a file reference.
    const env = { GW_TEST_TLS_KEY: SERVER_KEY };
    const tls = { cert: join(FIXTURES, 'server.pem'), key: { env: 'GW_TEST_TLS_KEY' } };
    plain = (await startStack({ mockServer: mock, workers: 2, over: { tls }, env, https: true })).gateway;
    mtls = (await startStack({ mockServer: mock, workers: 2, over: { tls: { ...tls, client_ca: { file: join(FIXTURES, 'ca.pem') } } }, env, https: true }))
      .gateway;
  });
  after(async () => {
    await plain?.stop();
    await mtls?.stop();
    await mock?.close();
  });

  it('serves HTTPS, with every connection to either worker', async () => {
    assert.match(plain.url, /^https:\/\//);
    // Fresh connections go round-robin over the two workers.
    for (let i = 0; i < 4; i++) {
      const r = await chat(plain);
      assert.equal(r.status, 200, r.body);
    }
  });

  it('negotiates ALPN http/1.1', async () => {
    const alpn = await new Promise<string | false>((resolve, reject) => {
      const socket = tlsConnect(
        { host: '127.0.0.1', port: Number(new URL(plain.url).port), ca: CA, servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'] },
        () => {
          resolve(socket.alpnProtocol ?? false);
          socket.end();
        },
      );
      socket.on('error', reject);
    });
    assert.equal(alpn, 'http/1.1');
  });

  it('refuses plain HTTP on the TLS port', async () => {
    await assert.rejects(request(plain.url.replace('https:', 'http:') + '/healthz'));
  });

  it('keeps its worker sockets in a private folder', () => {
    const dir = socketDir(plain);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.ok(existsSync(join(dir, 'worker-0.sock')) && existsSync(join(dir, 'worker-1.sock')));
  });

  it('serves again once a recycled worker is back on its socket', async () => {
    plain.proc.kill('SIGUSR2');
    await plain.waitForLog('worker restarted and listening');
    for (let i = 0; i < 4; i++) assert.equal((await chat(plain)).status, 200);
  });

  it('with client_ca: rejects a client without a certificate at the handshake, serves a signed one, keeps serving', async () => {
    const port = Number(new URL(mtls.url).port);
    // Held open across the rejections, then used: one bad client affects only its own connection.
    const held = new Agent({ connect: { ca: CA, servername: 'localhost', ...CLIENT } });
    try {
      const first = await request(`${mtls.url}/healthz`, { dispatcher: held });
      assert.equal(first.statusCode, 200);
      await first.body.text();

      await assert.rejects(chat(mtls));
      const handshake = await new Promise<string>((resolve) => {
        const socket = tlsConnect({ host: '127.0.0.1', port, ca: CA, servername: 'localhost' }, () => socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n'));
        socket.on('data', () => resolve('answered'));
        socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
      assert.match(handshake, /CERTIFICATE_REQUIRED|ECONNRESET|EPIPE/);

      const ok = await chat(mtls, CLIENT);
      assert.equal(ok.status, 200, ok.body);
      const again = await request(`${mtls.url}/healthz`, { dispatcher: held });
      assert.equal(again.statusCode, 200);
      await again.body.text();
    } finally {
      await held.close();
    }
  });

  it('removes the socket folder on a graceful stop and never logs PEM text', async () => {
    const dir = socketDir(mtls);
    assert.ok(existsSync(dir));
    assert.equal(await mtls.stop(), 0);
    assert.ok(!existsSync(dir), `${dir} should be gone`);
    assertNoPem(mtls);
    assertNoPem(plain);
  });
});
