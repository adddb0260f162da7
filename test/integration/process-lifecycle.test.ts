// The gateway process as an operator sees it: workers that die come back while the others
// serve, SIGTERM lets in-flight requests finish, and a config applied on the main thread
// reaches every worker.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { mockConfig, startGateway, writeConfig } from '../helpers/gateway.js';
import { startStack, suiteMock } from '../helpers/clients/stack.js';
import { adminClient } from '../helpers/admin-client.js';

const chatBody = (model: string, text = 'hello') => JSON.stringify({ model, messages: [{ role: 'user', content: text }] });

/** One request on a fresh connection (so the kernel may hand it to any worker). */
async function chat(url: string, model: string, text?: string): Promise<number> {
  const dispatcher = new Agent({ pipelining: 0 });
  try {
    const res = await request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chatBody(model, text),
      dispatcher,
    });
    await res.body.text();
    return res.statusCode;
  } finally {
    await dispatcher.close();
  }
}

describe('gateway process life cycle', () => {
  const mock = suiteMock();

  it('keeps serving while a killed worker is restarted', async () => {
    const { gateway: gw } = await startStack({ mockServer: mock, workers: 2 });
    try {
      for (let i = 0; i < 10; i++) assert.equal(await chat(gw.url, 'default'), 200);
      gw.proc.kill('SIGUSR2'); // the operator recycle: terminate one worker as if it crashed
      await gw.waitForLog('worker exited; restarting it');
      // While one worker is down the other serves every request.
      for (let i = 0; i < 10; i++) assert.equal(await chat(gw.url, 'default'), 200);
      await gw.waitForLog('worker restarted and listening');
      for (let i = 0; i < 20; i++) assert.equal(await chat(gw.url, 'default'), 200);
    } finally {
      assert.equal(await gw.stop(), 0);
    }
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const { gateway: gw } = await startStack({ mockServer: mock, workers: 2 });
    const inFlight = chat(gw.url, 'default', 'slow one [mock latency_ms=1500]');
    await new Promise((r) => setTimeout(r, 400));
    const exit = gw.stop('SIGTERM');
    assert.equal(await inFlight, 200, 'the in-flight request completed');
    assert.equal(await exit, 0);
    assert.match(gw.logs(), /shutdown complete/);
  });

  it('applies a config from the main thread to every worker', async () => {
    const { config, providers } = mockConfig(mock.url);
    config.config = { locked: false, overlay: { file: 'overlay.json' } };
    const gw = await startGateway(writeConfig(config, providers), { workers: 2 });
    try {
      assert.equal(await chat(gw.url, 'fresh-pool'), 404, 'the pool does not exist yet');
      const pools = { ...(config.pools as Record<string, unknown>), 'fresh-pool': { members: [{ model: 'lane-openai', weight: 1 }] } };
      const admin = adminClient(gw.adminUrl);
      const applied = await admin.POST('/config/apply', {
        body: {
          config: {
            ...config,
            providers_file: 'providers.yaml',
            pools,
            listen: new URL(gw.url).host,
            admin_listen: new URL(gw.adminUrl).host,
            advanced: { worker_threads: 2 },
          },
        } as never,
      });
      const view = applied.data!;
      assert.equal(applied.response.status, 200, JSON.stringify(applied.error));
      assert.deepEqual(view.applied, true);
      assert.equal(view.config_version, 1);
      // Every worker acknowledged before the apply answered: fresh connections, whichever
      // worker takes them, all see the new pool.
      for (let i = 0; i < 30; i++) assert.equal(await chat(gw.url, 'fresh-pool'), 200);
      const info = (await admin.GET('/info')).data!;
      assert.equal(info.config_version, 1);
    } finally {
      await gw?.stop();
    }
  });
});
