// Admin topology reads: GET /pools (paged), /pools/{name} (PoolDetailView, all twelve fields),
// /models, /providers, with the paging of API-DECISIONS.md.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { chatRaw, mockProvider, startRouting, type RoutingStack } from './routing-stack.js';

async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await request(url);
  return { status: res.statusCode, body: await res.body.json() };
}

const TWELVE = ['model', 'weight', 'usable', 'cooldown_remaining_seconds', 'available_concurrency', 'inflight', 'latency_ms', 'ok', 'err', 'dead', 'trip_count', 'last_trip_at'];

describe('admin pool, model and provider reads', () => {
  let stack: RoutingStack;
  before(async () => {
    stack = await startRouting((mockUrl) => {
      const models: Record<string, unknown> = {};
      const pools: Record<string, unknown> = {};
      for (let i = 0; i < 5; i++) {
        models[`m${i}`] = { provider: i < 3 ? 'alpha' : 'beta', ...(i === 0 ? { max_concurrent: 3 } : {}) };
        pools[`pool-${i}`] = { members: i === 0 ? [{ model: 'm0' }] : [{ model: `m${i}`, weight: i + 1 }, { model: 'm0' }] };
      }
      return { providers: { alpha: mockProvider(mockUrl), beta: mockProvider(mockUrl), unused: mockProvider(mockUrl) }, config: { models, pools } };
    });
  });
  after(async () => {
    await stack.close();
  });

  it('GET /pools pages by name; walking every page gives each pool once', async () => {
    const seen: string[] = [];
    let url = `${stack.gateway.adminUrl}/pools?limit=2`;
    for (let page = 0; page < 10; page++) {
      const { status, body } = await get(url);
      assert.equal(status, 200);
      assert.ok(body.items.length <= 2);
      for (const pool of body.items) seen.push(pool.name);
      if (body.next_cursor === null) break;
      url = `${stack.gateway.adminUrl}/pools?limit=2&cursor=${encodeURIComponent(body.next_cursor)}`;
    }
    assert.deepEqual(seen, ['pool-0', 'pool-1', 'pool-2', 'pool-3', 'pool-4']);
    const { body } = await get(`${stack.gateway.adminUrl}/pools`);
    assert.equal(body.next_cursor, null);
    assert.deepEqual(body.items[1], { name: 'pool-1', members: [{ model: 'm1', weight: 2 }, { model: 'm0', weight: 1 }] });
  });

  it('a bad limit or cursor is 400 invalid_request', async () => {
    for (const query of ['limit=0', 'limit=-1', 'limit=1.5', 'limit=1001', 'limit=abc', 'cursor=nope']) {
      const { status, body } = await get(`${stack.gateway.adminUrl}/pools?${query}`);
      assert.equal(status, 400, query);
      assert.equal(body.error.code, 'invalid_request');
    }
  });

  it('GET /pools/{name}: PoolDetailView with all twelve member fields, live', async () => {
    assert.equal((await chatRaw(stack.gateway, 'pool-3')).status, 200);
    const { status, body } = await get(`${stack.gateway.adminUrl}/pools/pool-3`);
    assert.equal(status, 200);
    assert.equal(body.name, 'pool-3');
    for (const member of body.members) assert.deepEqual(Object.keys(member).sort(), [...TWELVE].sort());
    const served = body.members.find((m: any) => m.ok === 1);
    assert.ok(served !== undefined, 'the member that served shows ok 1');
    assert.equal(typeof served.latency_ms, 'number');
    const m0 = body.members.find((m: any) => m.model === 'm0');
    assert.equal(m0.available_concurrency, 3, 'lane-global free slots of a bounded lane');
    assert.equal(m0.usable, true);
    assert.equal(m0.last_trip_at, null);
    assert.equal((await get(`${stack.gateway.adminUrl}/pools/nope`)).status, 404);
  });

  it('GET /models and GET /providers', async () => {
    const models = await get(`${stack.gateway.adminUrl}/models?limit=3`);
    assert.deepEqual(models.body.items, [{ model: 'm0', provider: 'alpha' }, { model: 'm1', provider: 'alpha' }, { model: 'm2', provider: 'alpha' }]);
    assert.equal(typeof models.body.next_cursor, 'string');
    const rest = await get(`${stack.gateway.adminUrl}/models?limit=3&cursor=${encodeURIComponent(models.body.next_cursor)}`);
    assert.deepEqual(rest.body, { items: [{ model: 'm3', provider: 'beta' }, { model: 'm4', provider: 'beta' }], next_cursor: null });
    const providers = await get(`${stack.gateway.adminUrl}/providers`);
    assert.deepEqual(providers.body, {
      items: [{ provider: 'alpha', model_count: 3 }, { provider: 'beta', model_count: 2 }, { provider: 'unused', model_count: 0 }],
      next_cursor: null,
    });
  });
});
