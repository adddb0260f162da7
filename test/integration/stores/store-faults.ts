// The shared store going away and coming back, through a TCP fault proxy the test controls.
// Stated behaviour (README, Stores): the data plane keeps answering with the keys it verified
// (fail-static); usage metered during the outage is kept in memory and lands in the store
// exactly once after recovery; admin mutations answer 503 `internal` during the outage (within
// the connect timeout, never hanging) and succeed after.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';
import { createBackend, type StoreBackend } from '../../helpers/store-backends.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';

export function storeFaults(module: 'postgres' | 'valkey'): void {
  describe(`store faults on ${module}`, () => {
    let mock: MockServer;
    let backend: StoreBackend;
    let proxy: FaultProxy;
    let g: Governed;
    const witness = new SecretWitness();
    const agent = new Agent({ connections: 8 });

    before(async () => {
      backend = await createBackend(module);
      mock = await startMockProvider({ port: 0 });
      proxy = await startFaultProxy(module === 'postgres' ? 5432 : 6379);
      const store = backend.config();
      const url = String(store.settings.url).replace(/:(5432|6379)/, `:${proxy.port}`);
      const settings = { ...store.settings, url, connect_timeout_ms: 1_000, statement_timeout_ms: 2_000, command_timeout_ms: 2_000, poll_interval_ms: 500 };
      g = await startGoverned(mock.url, witness, { workers: 1, over: { store: { module, settings }, governance: { flush_interval_secs: 0.5 } } });
    });
    after(async () => {
      if (process.env.GW_DEBUG_LOGS) console.log(g?.gw.logs().split('\n').slice(-30).join('\n'));
      await agent.close();
      await stopGoverned(g, witness);
      await proxy?.close();
      await mock?.close();
      await backend?.cleanup();
    });

    async function chat(secret: string): Promise<number> {
      const res = await request(`${g.gw.url}/v1/chat/completions`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await res.body.dump();
      return res.statusCode;
    }

    async function storedRequests(keyId: string): Promise<number> {
      const usage = await g.admin.ok('GET', '/usage');
      return (usage.by_key as Array<{ id: string; requests: number }>).filter((r) => r.id === keyId).reduce((n, r) => n + r.requests, 0);
    }

    it('cut, then back: verified keys keep working, admin answers 503 then succeeds, usage lands once', async () => {
      const key = await g.admin.mint({ name: 'before-outage' });
      for (let i = 0; i < 2; i++) assert.equal(await chat(key.secret), 200);

      proxy.set('cut');
      for (let i = 0; i < 5; i++) assert.equal(await chat(key.secret), 200, 'the data plane serves the verified key while the store is gone');
      const started = performance.now();
      const refused = await g.admin.call('POST', '/keys', { name: 'during-outage', allowed_pools: ['*'] });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.match(JSON.stringify(refused.body), /internal/);
      assert.match(JSON.stringify(refused.body), new RegExp(`${module} store is unavailable`));
      assert.ok(performance.now() - started < 10_000, 'the admin call answered instead of hanging');
      // Flushes fail while the store is gone (the ledger keeps the rows).
      await new Promise((r) => setTimeout(r, 1_500));

      proxy.set('pass');
      let minted: { id: string } | null = null;
      for (let i = 0; i < 100 && minted === null; i++) {
        const a = await g.admin.call('POST', '/keys', { name: 'after-outage', allowed_pools: ['*'] });
        if (a.status === 200 || a.status === 201) minted = a.body;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.notEqual(minted, null, 'an admin mutation succeeds once the store is back');
      // 2 before + 5 during the outage, each counted once.
      for (let i = 0; i < 50 && (await storedRequests(key.id)) !== 7; i++) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 1_200));
      assert.equal(await storedRequests(key.id), 7);
    });

    it('delay and reset: the data plane keeps answering; the store is used again after', async () => {
      const key = await g.admin.mint({ name: 'delay' });
      proxy.set('delay', 3_000);
      for (let i = 0; i < 3; i++) assert.equal(await chat(key.secret), 200, 'a slow store does not slow the data plane');
      proxy.set('pass');
      proxy.reset();
      for (let i = 0; i < 3; i++) assert.equal(await chat(key.secret), 200);
      let ok = false;
      for (let i = 0; i < 100 && !ok; i++) {
        ok = (await g.admin.call('PATCH', `/keys/${key.id}`, { name: 'delay-2' })).status === 200;
        if (!ok) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(ok, 'admin mutations succeed after a reset');
    });
  });
}
