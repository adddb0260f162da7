// Main's Responses API state service over real stores: a put takes main's clock and the live
// TTL, get / delete / input items by key, the chain walk (oldest first, a missing turn named,
// loops and depth bounded), the size cap and 0 (off), a store that cannot be reached answered
// as unavailable; kept across a restart on sqlite and shared by two nodes on postgres.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/main/store/memory.js';
import { PostgresStore } from '../../../src/main/store/postgres.js';
import { ResponseStateService, responseStoreLimits } from '../../../src/main/responses/response-state-service.js';
import type { Store } from '../../../src/main/store/store.js';
import { CHAIN_DEPTH_MAX, type ResponseStoreLimits, type StoredResponse } from '../../../src/shared/responses/stored-response.js';
import { createLogger } from '../../../src/shared/log.js';
import { createBackend, type StoreBackend } from '../../helpers/store-backends.js';

const log = createLogger('test');
const DAY_MS = 86_400_000;

function record(id: string, previousId: string | null = null, keyId = 'key-a'): StoredResponse {
  return {
    id,
    keyId,
    createdAtMs: 0,
    expiresAtMs: 0,
    lane: 'lane-gemini',
    provider: 'gemini',
    laneProtocol: 'gemini',
    upstreamId: null,
    previousId,
    input: [{ type: 'message', role: 'user', content: `said ${id}` }],
    response: { id, object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `answered ${id}` }] }] },
  };
}

/** A clock the test moves. */
function clock(startMs: number): { now: () => number; advance: (ms: number) => void } {
  let t = startMs;
  return { now: () => t, advance: (ms) => (t += ms) };
}

function service(store: Store, now: () => number, limits: ResponseStoreLimits = { ttlMs: DAY_MS, maxBytes: 1 << 20 }): ResponseStateService {
  return new ResponseStateService(store, () => limits, now, log);
}

describe('responses state service', () => {
  it('limits from the config section, and its defaults', () => {
    assert.deepEqual(responseStoreLimits({ ttl: '2h', max_bytes: 10 }), { ttlMs: 7_200_000, maxBytes: 10 });
    assert.deepEqual(responseStoreLimits(undefined), { ttlMs: 30 * DAY_MS, maxBytes: 256 * 1024 * 1024 });
  });

  it("put stamps main's clock and the TTL; get, input items and delete answer only the key that created it", async () => {
    const c = clock(1_700_000_000_000);
    const s = service(new MemoryStore(), c.now);
    assert.deepEqual(await s.answer({ kind: 'put', record: record('resp_1') }), { ok: true, kind: 'put', stored: true });
    const got = await s.answer({ kind: 'get', id: 'resp_1', keyId: 'key-a' });
    assert.ok(got.ok && got.kind === 'get' && got.record !== null);
    if (!(got.ok && got.kind === 'get' && got.record !== null)) return;
    assert.deepEqual([got.record.createdAtMs, got.record.expiresAtMs], [c.now(), c.now() + DAY_MS]);
    assert.deepEqual(await s.answer({ kind: 'get', id: 'resp_1', keyId: 'key-b' }), { ok: true, kind: 'get', record: null });
    const page = await s.answer({ kind: 'input-items', id: 'resp_1', keyId: 'key-a', query: { limit: 20, order: 'desc' } });
    assert.ok(page.ok && page.kind === 'input-items' && page.page?.data.length === 1);
    assert.deepEqual(await s.answer({ kind: 'input-items', id: 'resp_1', keyId: 'key-b', query: { limit: 20, order: 'desc' } }), {
      ok: true,
      kind: 'input-items',
      page: null,
    });
    assert.deepEqual(await s.answer({ kind: 'delete', id: 'resp_1', keyId: 'key-b' }), { ok: true, kind: 'delete', deleted: false });
    assert.deepEqual(await s.answer({ kind: 'delete', id: 'resp_1', keyId: 'key-a' }), { ok: true, kind: 'delete', deleted: true });
    assert.deepEqual(await s.answer({ kind: 'get', id: 'resp_1', keyId: 'key-a' }), { ok: true, kind: 'get', record: null });
  });

  it('TTL: a response is gone once the injected clock passes its expiry', async () => {
    const c = clock(1_700_000_000_000);
    const s = service(new MemoryStore(), c.now, { ttlMs: 60_000, maxBytes: 1 << 20 });
    await s.answer({ kind: 'put', record: record('resp_t') });
    c.advance(59_999);
    assert.ok((await s.answer({ kind: 'get', id: 'resp_t', keyId: 'key-a' })).ok);
    assert.notEqual(((await s.answer({ kind: 'get', id: 'resp_t', keyId: 'key-a' })) as { record: unknown }).record, null);
    c.advance(1);
    assert.equal(((await s.answer({ kind: 'get', id: 'resp_t', keyId: 'key-a' })) as { record: unknown }).record, null);
  });

  it('chain: oldest first; a turn not stored is named; a loop and the depth are bounded', async () => {
    const c = clock(1_700_000_000_000);
    const s = service(new MemoryStore(), c.now);
    for (const r of [record('r1'), record('r2', 'r1'), record('r3', 'r2')]) await s.answer({ kind: 'put', record: r });
    const full = await s.answer({ kind: 'chain', id: 'r3', keyId: 'key-a' });
    assert.ok(full.ok && full.kind === 'chain');
    if (full.ok && full.kind === 'chain') {
      assert.deepEqual(
        full.chain.records.map((r) => r.id),
        ['r1', 'r2', 'r3'],
      );
      assert.equal(full.chain.missing, null);
    }
    await s.answer({ kind: 'delete', id: 'r1', keyId: 'key-a' });
    assert.deepEqual(await s.answer({ kind: 'chain', id: 'r3', keyId: 'key-b' }), { ok: true, kind: 'chain', chain: { records: [], missing: 'r3' } });
    const broken = await s.answer({ kind: 'chain', id: 'r3', keyId: 'key-a' });
    assert.ok(broken.ok && broken.kind === 'chain' && broken.chain.missing === 'r1' && broken.chain.records.length === 2);
    // A loop (a response whose previous is itself, as an upstream that reuses one id makes) ends.
    await s.answer({ kind: 'put', record: record('loop', 'loop') });
    const loop = await s.answer({ kind: 'chain', id: 'loop', keyId: 'key-a' });
    assert.ok(loop.ok && loop.kind === 'chain' && loop.chain.records.length === 1 && loop.chain.missing === null);
    for (let i = 0; i <= CHAIN_DEPTH_MAX + 2; i++) await s.answer({ kind: 'put', record: record(`d${i}`, i === 0 ? null : `d${i - 1}`) });
    const deep = await s.answer({ kind: 'chain', id: `d${CHAIN_DEPTH_MAX + 2}`, keyId: 'key-a' });
    assert.ok(deep.ok && deep.kind === 'chain' && deep.chain.records.length === CHAIN_DEPTH_MAX);
  });

  it('max_bytes 0 stores nothing; a response over the cap is not stored', async () => {
    const c = clock(1_700_000_000_000);
    assert.deepEqual(await service(new MemoryStore(), c.now, { ttlMs: DAY_MS, maxBytes: 0 }).answer({ kind: 'put', record: record('x') }), {
      ok: true,
      kind: 'put',
      stored: false,
      reason: 'disabled',
    });
    assert.deepEqual(await service(new MemoryStore(), c.now, { ttlMs: DAY_MS, maxBytes: 100 }).answer({ kind: 'put', record: record('x') }), {
      ok: true,
      kind: 'put',
      stored: false,
      reason: 'too_large',
    });
  });

  it('a store that cannot be reached answers unavailable, never throws', async () => {
    const down = new PostgresStore({ url: 'postgres://postgres@127.0.0.1:1/none', schema: 'x', poolMax: 1, connectTimeoutMs: 500, statementTimeoutMs: 500 });
    try {
      const out = await service(down, Date.now).answer({ kind: 'get', id: 'x', keyId: 'k' });
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error, 'unavailable');
    } finally {
      await down.close();
    }
  });
});

describe('responses state service on durable stores', () => {
  const backends: StoreBackend[] = [];
  after(async () => {
    for (const b of backends) await b.cleanup();
  });

  it('sqlite: what one process stored, the next (after a restart) reads', async () => {
    const backend = await createBackend('sqlite');
    backends.push(backend);
    const first = backend.open();
    await service(first, Date.now).answer({ kind: 'put', record: record('resp_kept') });
    await first.close();
    const restarted = backend.open();
    const got = await service(restarted, Date.now).answer({ kind: 'chain', id: 'resp_kept', keyId: 'key-a' });
    await restarted.close();
    assert.ok(got.ok && got.kind === 'chain' && got.chain.records[0]?.id === 'resp_kept');
  });

  it('postgres: two nodes on one store share the state (a chain begun on one continues on the other)', async () => {
    const backend = await createBackend('postgres');
    backends.push(backend);
    const [a, b] = [backend.open(), backend.open()];
    try {
      await service(a, Date.now).answer({ kind: 'put', record: record('p1') });
      await service(b, Date.now).answer({ kind: 'put', record: record('p2', 'p1') });
      const chain = await service(a, Date.now).answer({ kind: 'chain', id: 'p2', keyId: 'key-a' });
      assert.ok(chain.ok && chain.kind === 'chain');
      if (chain.ok && chain.kind === 'chain')
        assert.deepEqual(
          chain.chain.records.map((r) => r.id),
          ['p1', 'p2'],
        );
      assert.deepEqual(await service(b, Date.now).answer({ kind: 'delete', id: 'p1', keyId: 'key-a' }), { ok: true, kind: 'delete', deleted: true });
      assert.deepEqual(await service(a, Date.now).answer({ kind: 'get', id: 'p1', keyId: 'key-a' }), { ok: true, kind: 'get', record: null });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
