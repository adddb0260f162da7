// The key life cycle on 2 workers: PATCH of a group's limits and of a key's `enabled` apply to
// the next request with the same secret; DELETE makes the key fail at once on both workers
// (their caches had verified it); rotate kills the old secret; the cache flush reports what it
// dropped; reads never carry a secret; a group with keys bound cannot be deleted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { governedSuite } from './harness.js';
import { chatAs, refusedAs } from './sdk-calls.js';

/** A request on a fresh connection each time, so the kernel spreads them over both workers. */
function freshChat(url: string, key: string): Promise<number> {
  const body = JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/v1/chat/completions`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), authorization: `Bearer ${key}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function statuses(url: string, key: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await freshChat(url, key));
  return out;
}

describe('key life cycle on two workers', () => {
  const g = governedSuite({ workers: 2 });

  it('PATCH of a group limit applies to the next request with the same secret', async () => {
    await g.admin.ok('POST', '/groups', { name: 'patchable', limits: [{ metric: 'requests', window: 'hour', max: 100 }] });
    const key = await g.admin.mint({ name: 'p', group: 'patchable' });
    for (let i = 0; i < 3; i++) await chatAs('openai', g.gw.url, key.secret);
    await g.admin.ok('PATCH', '/groups/patchable', { limits: [{ metric: 'requests', window: 'hour', max: 2 }] });
    // Three requests were counted this hour: the next one (any worker) is over the new cap.
    const f = await refusedAs('openai', g.gw.url, key.secret);
    assert.equal(f.status, 429);
    assert.match(f.message, /max of 2/);
    await g.admin.ok('PATCH', '/groups/patchable', { limits: [{ metric: 'requests', window: 'hour', max: 10 }] });
    await chatAs('openai', g.gw.url, key.secret);
  });

  it("PATCH of a key's enabled applies to the next request, on every worker", async () => {
    const key = await g.admin.mint({ name: 'toggle' });
    assert.deepEqual(await statuses(g.gw.url, key.secret, 6), [200, 200, 200, 200, 200, 200]);
    const patched = await g.admin.ok('PATCH', `/keys/${key.id}`, { enabled: false });
    assert.equal(patched.enabled, false);
    assert.deepEqual(await statuses(g.gw.url, key.secret, 6), [403, 403, 403, 403, 403, 403]);
    await g.admin.ok('PATCH', `/keys/${key.id}`, { enabled: true });
    assert.deepEqual(await statuses(g.gw.url, key.secret, 4), [200, 200, 200, 200]);
    const unknown = await g.admin.call('PATCH', `/keys/${key.id}`, { secret: 'x' });
    assert.equal(unknown.status, 400);
  });

  it('DELETE makes the key fail at once on both workers, and answers its KeyView disabled', async () => {
    const key = await g.admin.mint({ name: 'doomed' });
    // Both workers have verified (and cached) the secret.
    assert.deepEqual(await statuses(g.gw.url, key.secret, 8), new Array(8).fill(200));
    const deleted = await g.admin.call('DELETE', `/keys/${key.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.enabled, false);
    assert.equal(deleted.body.id, key.id);
    assert.deepEqual(await statuses(g.gw.url, key.secret, 8), new Array(8).fill(401));
    assert.equal((await g.admin.call('GET', `/keys/${key.id}`)).status, 404);
  });

  it('rotate returns a fresh secret once and kills the old one', async () => {
    const key = await g.admin.mint({ name: 'rotating' });
    await chatAs('openai', g.gw.url, key.secret);
    const rotated = await g.admin.ok('POST', `/keys/${key.id}/rotate`);
    assert.equal(rotated.id, key.id);
    assert.notEqual(rotated.secret, key.secret);
    assert.deepEqual(await statuses(g.gw.url, key.secret, 4), [401, 401, 401, 401]);
    await chatAs('anthropic', g.gw.url, rotated.secret);
  });

  it('reads carry no secret; lists page by created_at then id', async () => {
    for (let i = 0; i < 3; i++) await g.admin.mint({ name: `page-${i}` });
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: { items: Array<Record<string, unknown>>; next_cursor: string | null } = await g.admin.ok(
        'GET',
        `/keys?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      for (const item of page.items) {
        assert.equal(item.secret, undefined);
        assert.ok(!seen.has(item.id as string));
        seen.add(item.id as string);
      }
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.ok(seen.size >= 3);
    assert.equal((await g.admin.call('GET', '/keys?limit=0')).status, 400);
  });

  it('a mint ttl above auth.key_ttl is refused; an unknown group too', async () => {
    assert.equal((await g.admin.call('POST', '/keys', { name: 'long', allowed_pools: ['*'], ttl: '1000d' })).status, 400);
    assert.equal((await g.admin.call('POST', '/keys', { name: 'lost', allowed_pools: ['*'], group: 'nope' })).status, 400);
    const short = await g.admin.mint({ name: 'short', ttl: '1h' });
    const view = await g.admin.ok('GET', `/keys/${short.id}`);
    assert.ok(view.expires_at - view.created_at <= 3600);
  });

  it('a group with keys bound cannot be deleted (409); unbound it can', async () => {
    await g.admin.ok('POST', '/groups', { name: 'sticky' });
    const key = await g.admin.mint({ name: 's', group: 'sticky' });
    assert.equal((await g.admin.call('DELETE', '/groups/sticky')).status, 409);
    assert.equal((await g.admin.call('POST', '/groups', { name: 'sticky' })).status, 409);
    await g.admin.ok('PATCH', `/keys/${key.id}`, { group: null });
    await g.admin.ok('DELETE', '/groups/sticky');
    assert.equal((await g.admin.call('GET', '/groups/sticky')).status, 404);
  });

  it('every key and group mutation is audited (applied or rejected), never with a secret', async () => {
    const key = await g.admin.mint({ name: 'audited' });
    await g.admin.ok('POST', `/keys/${key.id}/rotate`);
    await g.admin.call('POST', '/groups', {
      name: 'audited',
      limits: [
        { metric: 'requests', window: 'minute', max: 1 },
        { metric: 'requests', window: 'minute', max: 2 },
      ],
    });
    const audit = await g.admin.ok('GET', '/audit?limit=50');
    const mine = audit.items.filter((e: { resource: string }) => e.resource === `key:${key.id}` || e.resource === 'group:audited');
    const actions = mine.map((e: { action: string; outcome: string }) => `${e.action}/${e.outcome}`).sort();
    assert.deepEqual(actions, ['group.create/rejected', 'key.create/applied', 'key.rotate/applied']);
  });

  it('POST /auth/cache/flush empties every worker cache and counts what it dropped', async () => {
    const key = await g.admin.mint({ name: 'cached' });
    await statuses(g.gw.url, key.secret, 6);
    const flushed = await g.admin.ok('POST', '/auth/cache/flush');
    assert.ok(flushed.flushed >= 1, JSON.stringify(flushed));
    const again = await g.admin.ok('POST', '/auth/cache/flush');
    assert.equal(again.flushed, 0);
    // Verified again from scratch after the flush.
    assert.deepEqual(await statuses(g.gw.url, key.secret, 2), [200, 200]);
  });
});
