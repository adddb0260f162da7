// GET /healthz answers 200 `ok` while any lane is usable and 503 when none is; --safe-mode
// boots from the files alone, ignoring the overlay of API-applied changes, and says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig } from '../helpers/gateway.js';
import { adminClient } from '../helpers/admin-client.js';

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await request(url);
  return { status: res.statusCode, body: await res.body.text() };
}

async function chat(url: string, model: string): Promise<number> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.body.dump();
  return res.statusCode;
}

describe('health and safe mode', () => {
  let mock: MockServer;
  before(async () => {
    mock = await startMockProvider({ port: 0 });
  });
  after(async () => {
    await mock?.close();
  });

  it('/healthz is 200 while a lane is usable and 503 once none is', async () => {
    const { config, providers } = mockConfig(mock.url);
    // One lane with a lifetime budget of one request, and nothing else.
    config.models = { only: { provider: 'mock-openai', upstream_model: 'up', max_requests: 1 } };
    config.pools = { default: { members: [{ model: 'only' }] } };
    const gw = await startGateway(writeConfig(config, providers), { workers: 2 });
    try {
      assert.deepEqual(await get(`${gw.url}/healthz`), { status: 200, body: 'ok' });
      assert.equal(await chat(gw.url, 'default'), 200);
      const after = await get(`${gw.url}/healthz`);
      assert.equal(after.status, 503);
      assert.equal(await chat(gw.url, 'default'), 503, 'the pool is exhausted too');
    } finally {
      await gw?.stop();
    }
  });

  it('--safe-mode ignores the overlay; a normal boot uses it', async () => {
    const { config, providers } = mockConfig(mock.url, { config: { locked: false, overlay: { file: 'overlay.json' } } });
    const files = writeConfig(config, providers);
    const overlay = {
      file: 'overlay.json',
      config: (doc: Record<string, unknown>) => ({ ...doc, pools: { ...(doc.pools as Record<string, unknown>), 'from-overlay': { members: [{ model: 'lane-openai' }] } } }),
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
