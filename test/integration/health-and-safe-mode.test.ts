// GET /healthz answers 200 `ok` while any lane is usable and 503 when none is; --safe-mode
// boots from the files alone, ignoring the overlay of API-applied changes, and says so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { chatStatus as chat } from '../helpers/clients/raw.js';
import { startGateway, writeConfig } from '../helpers/gateway.js';
import { stackConfig, startStack, suiteMock } from '../helpers/clients/stack.js';
import { adminClient } from '../helpers/admin-client.js';

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await request(url);
  return { status: res.statusCode, body: await res.body.text() };
}

describe('health and safe mode', () => {
  const mock = suiteMock();

  it('/healthz is 200 while a lane is usable and 503 once none is', async () => {
    // One lane with a lifetime budget of one request, and nothing else.
    const stack = await startStack({
      mockServer: mock,
      workers: 2,
      over: { models: { only: { provider: 'mock-openai', upstream_model: 'up', max_requests: 1 } }, pools: { default: { members: [{ model: 'only' }] } } },
    });
    const gw = stack.gateway;
    try {
      assert.deepEqual(await get(`${gw.url}/healthz`), { status: 200, body: 'ok' });
      assert.equal(await chat(gw.url, 'default'), 200);
      const after = await get(`${gw.url}/healthz`);
      assert.equal(after.status, 503);
      assert.equal(await chat(gw.url, 'default'), 503, 'the pool is exhausted too');
    } finally {
      await stack.close();
    }
  });

  it('a lane merely at capacity is usable: /healthz 200, member usable, while routing skips it (issue 46)', async () => {
    const stack = await startStack({
      mock: { latency_ms: 3_000 },
      workers: 2,
      over: { models: { only: { provider: 'mock-openai', upstream_model: 'up', max_concurrent: 1 } }, pools: { default: { members: [{ model: 'only' }] } } },
    });
    const gw = stack.gateway;
    try {
      const held = chat(gw.url, 'default');
      // Handshake, not a sleep: wait until the one permit is taken.
      for (let i = 0; i < 200; i++) {
        const pools = (await adminClient(gw.adminUrl).GET('/pools/{name}', { params: { path: { name: 'default' } } })).data!;
        if (pools.members[0]!.available_concurrency === 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const detail = (await adminClient(gw.adminUrl).GET('/pools/{name}', { params: { path: { name: 'default' } } })).data!;
      assert.equal(detail.members[0]!.available_concurrency, 0, 'the lane is at capacity');
      assert.equal(detail.members[0]!.usable, true, 'and usable');
      assert.deepEqual(await get(`${gw.url}/healthz`), { status: 200, body: 'ok' });
      const stats = JSON.parse((await get(`${gw.url}/stats`)).body) as { lanes: Array<{ usable: boolean; at_capacity: boolean; availability: string }> };
      assert.deepEqual([stats.lanes[0]!.usable, stats.lanes[0]!.at_capacity, stats.lanes[0]!.availability], [true, true, 'at_capacity']);
      assert.equal(await chat(gw.url, 'default'), 503, 'routing still skips a lane at capacity');
      assert.equal(await held, 200);
    } finally {
      await stack.close();
    }
  });

  it('--safe-mode ignores the overlay; a normal boot uses it', async () => {
    const { config, providers } = stackConfig(mock.url, { over: { config: { locked: false, overlay: { file: 'overlay.json' } } } });
    const files = writeConfig(config, providers);
    const overlay = {
      file: 'overlay.json',
      config: (doc: Record<string, unknown>) => ({
        ...doc,
        pools: { ...(doc.pools as Record<string, unknown>), 'from-overlay': { members: [{ model: 'lane-openai' }] } },
      }),
    };

    const normal = await startGateway(files, { workers: 1, overlay });
    try {
      assert.equal(await chat(normal.url, 'from-overlay'), 200);
    } finally {
      await normal.stop();
    }

    const safe = await startGateway(files, { workers: 1, args: ['--safe-mode'], overlay });
    try {
      assert.equal(await chat(safe.url, 'from-overlay'), 404, 'the overlay was ignored');
      assert.equal(await chat(safe.url, 'default'), 200);
      const info = (await adminClient(safe.adminUrl).GET('/info')).data!;
      assert.equal(info.safe_mode, true);
      assert.match(safe.logs(), /safe mode/);
    } finally {
      await safe.stop();
    }
  });
});
