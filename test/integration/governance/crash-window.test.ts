// kill -9 on sqlite, two workers: a restarted node does not admit again what it admitted before
// the crash beyond what the last flush interval held (here: nothing, once a flush passed since
// the cap was reached), and its counters and GET /usage agree after the restart even when the
// kill lands under load (the counters and the usage of one flush cut are written together).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, writeConfig, type GatewayFiles } from '../../helpers/gateway.js';
import { SecretWitness, startGoverned, type Governed } from './harness.js';

const FLUSH_SECS = 1;

describe('the crash window (kill -9, sqlite, two workers)', () => {
  let mock: MockServer;
  const witness = new SecretWitness();
  const running: Governed[] = [];
  const agent = new Agent({ connections: 64, pipelining: 0 });

  before(async () => {
    mock = await startMockProvider({ port: 0, latency_ms: 20 });
  });
  after(async () => {
    for (const g of running) {
      await g.gw.stop();
      witness.check(g.gw.logs());
    }
    await agent.close();
    await mock?.close();
  });

  function files(): GatewayFiles {
    const { config, providers } = mockConfig(mock.url);
    return writeConfig(
      {
        ...config,
        auth: { chain: ['keys'], admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } },
        store: { module: 'sqlite', settings: { path: 'state/gw.db' } },
        governance: { flush_interval_secs: FLUSH_SECS },
      },
      providers,
    );
  }

  async function start(f: GatewayFiles): Promise<Governed> {
    const g = await startGoverned(mock.url, witness, { files: f, workers: 2 });
    running.push(g);
    return g;
  }

  async function send(g: Governed, key: string): Promise<number> {
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'default', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.body.dump();
    return res.statusCode;
  }

  const admittedOf = async (g: Governed, key: string, n: number): Promise<number> =>
    (await Promise.all(Array.from({ length: n }, () => send(g, key).catch(() => 0)))).filter((s) => s === 200).length;

  it('a cap reached a flush interval before the kill admits nothing more after the restart', async (t) => {
    const f = files();
    const first = await start(f);
    await first.admin.ok('POST', '/groups', {
      name: 'hundred',
      limits: [
        { metric: 'requests', window: 'day', max: 100 },
        { metric: 'tokens', window: 'day', max: 100_000 },
      ],
    });
    const key = await first.admin.mint({ name: 'capped', group: 'hundred' });
    const before = await admittedOf(first, key.secret, 150);
    assert.equal(before, 100);
    // One flush interval, its cut and its write: the cap is in the store.
    await new Promise((r) => setTimeout(r, 2_500 * FLUSH_SECS));
    await first.gw.stop('SIGKILL');
    const second = await start(f);
    const again = await admittedOf(second, key.secret, 150);
    t.diagnostic(
      `cap 100 requests reached, kill -9 ${2.5 * FLUSH_SECS} s later, restart: ${again} admitted again (bound: what the last flush interval admitted, here 0)`,
    );
    assert.equal(again, 0);
    await second.gw.stop();
    running.splice(running.indexOf(second), 1);
  });

  it("killed under load, the restarted node's counters and GET /usage agree", async (t) => {
    for (const offsetMs of [1_700, 2_350]) {
      const f = files();
      const first = await start(f);
      const key = await first.admin.mint({ name: 'busy' });
      let stop = false;
      let sent = 0;
      const loops = Array.from({ length: 16 }, async () => {
        while (!stop) {
          await send(first, key.secret).catch(() => 0);
          sent++;
        }
      });
      await new Promise((r) => setTimeout(r, offsetMs));
      await first.gw.stop('SIGKILL');
      stop = true;
      await Promise.all(loops);
      const second = await start(f);
      const counters = await second.admin.ok('GET', `/keys/${key.id}/usage`);
      const usage = await second.admin.ok('GET', '/usage');
      const row = usage.by_key.find((r: { id: string }) => r.id === key.id) ?? {
        requests: 0,
        tokens_input: 0,
        tokens_output: 0,
        tokens_cache_read: 0,
        tokens_cache_creation: 0,
      };
      const usageTokens = row.tokens_input + row.tokens_output + row.tokens_cache_read + row.tokens_cache_creation;
      t.diagnostic(
        `kill -9 ${offsetMs} ms into ~${sent} requests: after the restart the counters say ${counters.requests} requests / ${counters.tokens} tokens, GET /usage ${row.requests} / ${usageTokens}`,
      );
      assert.ok(counters.requests > 0, 'something was saved before the kill');
      assert.equal(counters.requests, row.requests);
      assert.equal(counters.tokens, usageTokens);
      await second.gw.stop();
      running.splice(running.indexOf(second), 1);
    }
  });
});
