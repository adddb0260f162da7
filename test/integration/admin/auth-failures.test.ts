// Failed admin authentication is recorded and slowed (issue 46), against the real process: a
// flood of wrong tokens from one address (127.0.0.2) is answered 429 rate_limited with
// Retry-After after the first few, even with the right token from that address; the first 401 on
// a mutation is an audit entry with principal anonymous and the rest are coalesced (the ring
// grows by a bounded few, not by the flood), every failure is logged (coalesced too), and the
// operator on another address (127.0.0.1) is not affected.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { adminFixture, type AdminFixture } from './setup.js';

describe('failed admin authentication (issue 46)', () => {
  let f: AdminFixture;
  let attacker: Agent;
  before(async () => {
    f = await adminFixture();
    attacker = new Agent({ localAddress: '127.0.0.2', connections: 4 });
  });
  after(async () => {
    await attacker?.close();
    await f.close();
  });

  const mint = async (token: string, dispatcher: Agent) => {
    const res = await request(`${f.gw.adminUrl}/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'k', allowed_pools: ['*'] }),
      dispatcher,
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: (await res.body.json()) as { error?: { code: string } } };
  };

  it('a flood of wrong tokens: 401 at first, then 429 rate_limited with Retry-After, for the right token too', async () => {
    const before = (await f.admin.GET('/audit', { params: { query: { limit: 1000 } } })).data!.items.length;
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let i = 0; i < 300; i++) {
      const r = await mint(`wrong-token-${i}`, attacker);
      statuses.push(r.status);
      if (r.status === 429) {
        retryAfter = r.retryAfter;
        assert.equal(r.body.error!.code, 'rate_limited');
      }
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.ok(
      statuses.slice(10).every((s) => s === 429),
      `after 10 failures: ${[...new Set(statuses.slice(10))].join(',')}`,
    );
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${String(retryAfter)}`);
    const right = await mint(f.token, attacker);
    assert.equal(right.status, 429, 'no credential is checked while the address is refused');

    // The operator's own address is not refused; the ring grew by one entry, not by 300.
    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 1000 } } })).data!.items;
    assert.equal(
      audit.length,
      before + 1,
      audit
        .slice(0, 3)
        .map((e) => `${e.action} ${e.resource}`)
        .join('; '),
    );
    assert.deepEqual([audit[0]!.action, audit[0]!.outcome, audit[0]!.principal], ['key.create', 'rejected', 'anonymous']);
    const logged = f.gw
      .logs()
      .split('\n')
      .filter((line) => line.includes('authentication failed'));
    assert.equal(logged.length, 1, 'logged once, the rest counted for the summary');
    assert.match(logged[0]!, /"source":"127\.0\.0\.2"/);
    assert.ok(!f.gw.logs().includes('wrong-token-'), 'no presented token is logged');
  });

  it('a read with a wrong token is logged and counted but not audited (the audit records mutation attempts)', async () => {
    const before = (await f.admin.GET('/audit', { params: { query: { limit: 1000 } } })).data!.items.length;
    const other = new Agent({ localAddress: '127.0.0.3' });
    try {
      const res = await request(`${f.gw.adminUrl}/info`, { headers: { 'x-admin-token': 'nope-nope-nope' }, dispatcher: other });
      assert.equal(res.statusCode, 401);
      await res.body.dump();
    } finally {
      await other.close();
    }
    assert.equal((await f.admin.GET('/audit', { params: { query: { limit: 1000 } } })).data!.items.length, before);
    await f.gw.waitForLog('"source":"127.0.0.3"');
  });
});
