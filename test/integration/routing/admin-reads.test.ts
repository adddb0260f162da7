// Admin topology reads: GET /pools (paged), /pools/{name} (PoolDetailView, all twelve fields),
// /models, /providers, with the paging of API-DECISIONS.md. Through the typed admin client,
// which checks every answer against docs/openapi.json.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminClient, type AdminClient } from '../../helpers/admin-client.js';
import { chatRaw, mockProvider, startRouting, type RoutingStack } from './routing-stack.js';

let admin: AdminClient;

/** A read whose path (query included) is built at run time: the answer is still contract-checked. */
async function get(path: string): Promise<{ status: number; body: any }> {
  const { response } = await admin.GET(path as never, {} as never);
  return { status: response.status, body: await response.json() };
}

const TWELVE = [
  'model',
  'weight',
  'usable',
  'cooldown_remaining_seconds',
  'available_concurrency',
  'inflight',
  'latency_ms',
  'ok',
  'err',
  'dead',
  'trip_count',
  'last_trip_at',
];

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
    admin = adminClient(stack.gateway.adminUrl);
  });
  after(async () => {
    await stack.close();
  });

  it('GET /pools pages by name; walking every page gives each pool once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { data, response } = await admin.GET('/pools', { params: { query: { limit: 2, cursor } } });
      assert.equal(response.status, 200);
      assert.ok(data!.items.length <= 2);
      for (const pool of data!.items) seen.push(pool.name);
      if (data!.next_cursor === null) break;
      cursor = data!.next_cursor;
    }
    assert.deepEqual(seen, ['pool-0', 'pool-1', 'pool-2', 'pool-3', 'pool-4']);
    const { data } = await admin.GET('/pools');
    assert.equal(data!.next_cursor, null);
    assert.deepEqual(data!.items[1], {
      name: 'pool-1',
      members: [
        { model: 'm1', weight: 2 },
        { model: 'm0', weight: 1 },
      ],
    });
  });

  it('a bad limit or cursor is 400 invalid_request', async () => {
    for (const query of ['limit=0', 'limit=-1', 'limit=1.5', 'limit=1001', 'limit=abc', 'cursor=nope']) {
      const { status, body } = await get(`/pools?${query}`);
      assert.equal(status, 400, query);
      assert.equal(body.error.code, 'invalid_request');
    }
  });

  it('GET /pools/{name}: PoolDetailView with all twelve member fields, live', async () => {
    assert.equal((await chatRaw(stack.gateway, 'pool-3')).status, 200);
    const { data: body, response } = await admin.GET('/pools/{name}', { params: { path: { name: 'pool-3' } } });
    assert.equal(response.status, 200);
    assert.ok(body !== undefined);
    assert.equal(body.name, 'pool-3');
    for (const member of body.members) assert.deepEqual(Object.keys(member).sort(), [...TWELVE].sort());
    const served = body.members.find((m) => m.ok === 1);
    assert.ok(served !== undefined, 'the member that served shows ok 1');
    assert.equal(typeof served.latency_ms, 'number');
    const m0 = body.members.find((m) => m.model === 'm0')!;
    assert.equal(m0.available_concurrency, 3, 'lane-global free slots of a bounded lane');
    assert.equal(m0.usable, true);
    assert.equal(m0.last_trip_at, null);
    assert.equal((await admin.GET('/pools/{name}', { params: { path: { name: 'nope' } } })).response.status, 404);
  });

  it('GET /models and GET /providers', async () => {
    const models = (await admin.GET('/models', { params: { query: { limit: 3 } } })).data!;
    assert.deepEqual(models.items, [
      { model: 'm0', provider: 'alpha' },
      { model: 'm1', provider: 'alpha' },
      { model: 'm2', provider: 'alpha' },
    ]);
    assert.equal(typeof models.next_cursor, 'string');
    const rest = (await admin.GET('/models', { params: { query: { limit: 3, cursor: models.next_cursor! } } })).data;
    assert.deepEqual(rest, {
      items: [
        { model: 'm3', provider: 'beta' },
        { model: 'm4', provider: 'beta' },
      ],
      next_cursor: null,
    });
    const providers = (await admin.GET('/providers')).data;
    assert.deepEqual(providers, {
      items: [
        { provider: 'alpha', model_count: 3 },
        { provider: 'beta', model_count: 2 },
        { provider: 'unused', model_count: 0 },
      ],
      next_cursor: null,
    });
  });
});
