// A group's `concurrent` slot is given back on every path a request can end by: success,
// an upstream failure, a caller that goes away mid-request, and the death of the worker that
// held it (main reclaims what a dead worker had in flight).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { freePort } from '../../helpers/ports.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';

describe('concurrent is released on every path', () => {
  let mock: MockServer;
  let slow: MockServer;
  let g: Governed;
  let secret = '';
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    slow = await startMockProvider({ port: 0, latency_ms: 3000 });
    const deadPort = await freePort();
    g = await startGoverned(mock.url, witness, {
      workers: 1,
      extraProviders: {
        'slow-openai': { protocol: 'openai', base_url: `${slow.url}/v1`, auth: { mode: 'none' } },
        'dead-openai': { protocol: 'openai', base_url: `http://127.0.0.1:${deadPort}/v1`, auth: { mode: 'none' } },
      },
      extraModels: { 'lane-slow': { provider: 'slow-openai' }, 'lane-dead': { provider: 'dead-openai' } },
      extraPools: { 'pool-slow': { members: [{ model: 'lane-slow', weight: 1 }] }, 'pool-dead': { members: [{ model: 'lane-dead', weight: 1 }] } },
    });
    await g.admin.ok('POST', '/groups', { name: 'solo', limits: [{ metric: 'concurrent', window: 'total', max: 1 }] });
    secret = (await g.admin.mint({ name: 'solo', group: 'solo' })).secret;
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
    await slow?.close();
  });

  async function send(model: string, signal?: AbortSignal): Promise<number> {
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.body.dump();
    return res.statusCode;
  }

  /** The slot is free again once a request is admitted (polls briefly: release may trail). */
  async function admittedSoon(): Promise<void> {
    for (let i = 0; i < 20; i++) {
      if ((await send('default')) === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('the concurrent slot was never released');
  }

  it('after a success and after an upstream failure', async () => {
    assert.equal(await send('default'), 200);
    assert.equal(await send('default'), 200);
    const failed = await send('pool-dead');
    assert.ok(failed >= 500, `status ${failed}`);
    assert.equal(await send('default'), 200);
  });

  it('after the caller goes away mid-request', async () => {
    const abort = new AbortController();
    const inflight = send('pool-slow', abort.signal).catch(() => 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await send('default'), 429, 'the slot is held while the slow request runs');
    abort.abort();
    await inflight;
    await admittedSoon();
  });

  it('after the worker holding it dies', async () => {
    const inflight = send('pool-slow').catch(() => 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await send('default'), 429);
    // SIGUSR2 recycles the worker as a crash would; main reclaims its in-flight count.
    g.gw.proc.kill('SIGUSR2');
    await inflight;
    await g.gw.waitForLog('worker restarted and listening');
    await admittedSoon();
  });
});
