// A caller abort BEFORE dispatch passes through the request's end once, as caller_abort, with no
// breaker effect and nothing sent upstream. Authentication comes before the body names a pool,
// so a caller that leaves while its key is verified ends before any target is known: its
// disposition is counted with the untargeted ones (GET /stats `untargeted`). The request under
// test sends its headers and never its body, so however the verification and the close race,
// it cannot reach a pool.
//
// The gap: under `auth.chain: [keys]` a key the worker has not verified yet (a cold cache) is
// checked with WebCrypto, which runs on libuv's thread pool, so the request waits for it
// across an event-loop turn before routing and dispatch. To make that wait long enough for a
// caller to leave in it, a flood of requests carrying the same cold key goes first: every one
// of them queues its own verification (the cache fills only when one completes), and the
// request under test, sent last on a raw socket that closes right after the request is
// written, queues behind them all. Its lane sits on a provider of its own (a second mock), so
// "nothing sent upstream" is that mock's request count.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';
import { memberOf, poolOf, type Stats } from './routing-stack.js';

const FLOOD = 300;

async function readStats(g: Governed, secret: string): Promise<Stats> {
  const res = await request(`${g.gw.url}/stats`, { headers: { authorization: `Bearer ${secret}` } });
  const text = await res.body.text();
  assert.equal(res.statusCode, 200, text);
  return JSON.parse(text) as Stats;
}

function chatRequest(url: string, secret: string, model: string, close: boolean, withBody = true): string {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
  return (
    `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
    `authorization: Bearer ${secret}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${close ? 'connection: close\r\n' : ''}\r\n${withBody ? body : ''}`
  );
}

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The status line of what comes back before the gateway closes the connection. */
function statusOf(socket: Socket): Promise<number> {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => resolve(Number(text.slice(9, 12))));
  });
}

describe('caller abort before dispatch', () => {
  let mock: MockServer;
  let untouched: MockServer;
  let g: Governed;
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    untouched = await startMockProvider({ port: 0 });
    g = await startGoverned(mock.url, witness, {
      workers: 1,
      extraProviders: { 'mock-untouched': { protocol: 'openai', base_url: `${untouched.url}/v1`, auth: { mode: 'none' } } },
      extraModels: { 'lane-abort': { provider: 'mock-untouched', upstream_model: 'up-abort' } },
      extraPools: { 'pool-abort': { members: [{ model: 'lane-abort', weight: 1 }] } },
    });
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
    await untouched?.close();
  });

  it('while the key is verified: finish once with caller_abort, no breaker effect, nothing upstream', async () => {
    const key = await g.admin.mint({ name: 'cold' });
    // Never used yet, so every request below finds the worker's cache cold.
    // Every connection is open first, then the writes go out back to back in this order, so
    // the gateway reads the flood before the request under test.
    const floodSockets = await Promise.all(Array.from({ length: FLOOD }, () => open(g.gw.url)));
    const leaving = await open(g.gw.url);
    const flood = floodSockets.map((socket) => statusOf(socket));
    const floodRequest = chatRequest(g.gw.url, key.secret, 'pool-openai', true);
    for (const socket of floodSockets) socket.write(floodRequest);
    leaving.write(chatRequest(g.gw.url, key.secret, 'pool-abort', false, false), () => leaving.destroy());
    const statuses = await Promise.all(flood);
    assert.deepEqual([...new Set(statuses)], [200], 'the flood itself is served');

    let stats = await readStats(g, key.secret);
    for (let i = 0; i < 200 && (stats.untargeted.caller_abort ?? 0) === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      stats = await readStats(g, key.secret);
    }
    const pool = poolOf(stats, 'pool-abort');
    const count = (d: Record<string, number>) => Object.values(d).reduce((a, b) => a + b, 0);
    assert.equal(
      pool.members.reduce((n, m) => n + count(m.dispositions), count(pool.unrouted)),
      0,
      'it never reached its pool',
    );
    assert.equal(count(stats.untargeted), 1, 'the end ran once');
    assert.equal(stats.untargeted.caller_abort, 1);
    const cell = memberOf(stats, 'pool-abort', 'lane-abort');
    assert.equal(cell.breaker_state, 'closed');
    assert.equal(cell.streak, 0, 'no breaker move');
    assert.equal(cell.err, 0, 'not a lane failure');
    assert.equal(cell.ok, 0);
    assert.equal(cell.inflight, 0, 'no permit held');
    assert.equal(untouched.stats().requests, 0, 'nothing was sent upstream');
  });
});
