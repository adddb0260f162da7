// The audit chain without ambiguity (issue 46), against the real process and its sqlite log:
// every name that reaches `resource` is refused with "|" or a control character on each write
// path (groups, hooks, path names, hook names in an applied config), a refused attempt's
// resource is escaped and bounded (a 7 MB name is not stored whole), `gateway audit verify`
// calls a row whose fields were shifted across a "|" altered though its hash matches, and after
// the ring prunes, every entry GET /audit shows (the oldest kept one too) verifies.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { runCli } from '../../helpers/gateway.js';
import { adminFixture, liveConfig, type AdminFixture } from './setup.js';

type Shown = {
  seq: number;
  ts: number;
  action: string;
  resource: string;
  outcome: string;
  principal: string;
  prev_hash: string;
  hash: string;
  chain_prev_hash: string;
};

function specHash(e: Shown, prev: string): string {
  return createHash('sha256').update(`${prev}|${e.seq}|${e.ts}|${e.action}|${e.resource}|${e.outcome}|${e.principal}`).digest('hex');
}

describe('audit chain without ambiguity (issue 46)', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture({ over: { store: { module: 'sqlite', settings: { path: 'gateway.db' } } } });
  });
  after(async () => {
    await f.close();
  });

  const last = async () => (await f.admin.GET('/audit', { params: { query: { limit: 1 } } })).data!.items[0]! as Shown;

  it('a group name with "|" or a control character is refused (400), audited with the name escaped', async () => {
    for (const name of ['ops|rejected', 'ops\nline', 'tab\there', 'nul\u0000']) {
      const res = await f.admin.POST('/groups', { body: { name } as never });
      assert.equal(res.response.status, 400, name);
      assert.equal(res.error!.error.code, 'invalid_request');
      const e = await last();
      assert.deepEqual([e.action, e.outcome], ['group.create', 'rejected']);
      assert.doesNotMatch(e.resource, /[|\u0000-\u001f]/, e.resource);
    }
    assert.equal((await last()).resource, 'group:nul%00');
    assert.equal((await f.admin.GET('/groups')).data!.items.length, 0, 'none was created');
  });

  it('a hook name with "|" is refused by POST /hooks and by an applied config; a path name with "|" too', async () => {
    const hook = await f.admin.POST('/hooks', { body: { name: 'h|applied', kind: 'tap', socket: '/tmp/none.sock' } as never });
    assert.equal(hook.response.status, 400);
    const config = liveConfig(f);
    const applied = await f.admin.POST('/config/apply', { body: { config: { ...config, hooks: { 'h|x': { kind: 'tap', socket: '/tmp/none.sock' } } } } });
    assert.equal(applied.response.status, 400);
    assert.match(applied.error!.error.message, /hooks\["h\|x"\].*must not contain "\|"/);
    for (const path of ['/groups/a%7Cb', '/keys/key_a%7Crejected', '/hooks/a%7Cb']) {
      const res = await fetch(`${f.gw.adminUrl}${path}`, { method: 'DELETE', headers: { 'x-admin-token': f.token } });
      assert.equal(res.status, 400, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_request');
      assert.equal((await last()).resource.includes('|'), false);
    }
  });

  it('a refused 7 MB name is not stored whole: the resource is bounded', async () => {
    const huge = 'x'.repeat(7 * 1024 * 1024);
    const res = await request(`${f.gw.adminUrl}/hooks`, {
      method: 'POST',
      headers: { 'x-admin-token': f.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: huge, kind: 'tap', socket: '/tmp/none.sock' }),
    });
    assert.equal(res.statusCode, 400);
    await res.body.dump();
    const e = await last();
    assert.equal(e.action, 'hook.register');
    assert.ok(e.resource.length <= 256, `${e.resource.length} chars`);
    assert.match(e.resource, /more chars\]$/);
  });

  it('gateway audit verify: intact; a row rewritten with a field outside its domain is altered, though every hash was redone', async () => {
    await f.gw.stop();
    const intact = await runCli(['audit', 'verify', '--config', f.files.configPath]);
    assert.equal(intact.code, 0, intact.stdout + intact.stderr);
    const db = join(f.files.dir, 'gateway.db');
    const pristine = join(f.files.dir, 'pristine.db');
    copyFileSync(db, pristine);
    // Whoever rewrites a row and every hash after it (and the run's head) leaves a chain whose
    // hashes all match; only the fields' domains tell that `outcome` now holds a "|".
    const tamper = (change: (row: Shown) => void): void => {
      const sql = new Database(db);
      const rows = sql.prepare('SELECT id, run, seq, ts, action, resource, outcome, principal, prev_hash, hash FROM audit_log ORDER BY id').all() as Array<
        Shown & { id: number; run: string }
      >;
      const target = rows.find((r) => r.action === 'group.create')!;
      change(target);
      let prev = '';
      for (const r of rows.filter((x) => x.run === target.run)) {
        r.prev_hash = prev;
        r.hash = specHash(r, prev);
        prev = r.hash;
        sql
          .prepare('UPDATE audit_log SET resource = ?, outcome = ?, principal = ?, prev_hash = ?, hash = ? WHERE id = ?')
          .run(r.resource, r.outcome, r.principal, r.prev_hash, r.hash, r.id);
      }
      sql.prepare('UPDATE audit_runs SET last_hash = ? WHERE run = ?').run(prev, target.run);
      sql.close();
    };
    const cases: Array<[string, (row: Shown) => void]> = [
      [
        'an outcome holding "|"',
        (row) => {
          row.outcome = 'applied|rejected';
        },
      ],
      [
        'an unknown outcome',
        (row) => {
          row.outcome = 'maybe';
        },
      ],
      [
        'a principal outside its forms',
        (row) => {
          row.principal = 'root';
        },
      ],
      [
        'a resource holding "|"',
        (row) => {
          row.resource = 'group:ops|rejected';
        },
      ],
    ];
    for (const [what, change] of cases) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
      copyFileSync(pristine, db);
      tamper(change);
      const broken = await runCli(['audit', 'verify', '--config', f.files.configPath]);
      assert.equal(broken.code, 1, what);
      assert.match(broken.stdout, /altered/, what);
    }
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    copyFileSync(pristine, db);
    await f.restart();
  });

  it('after the ring prunes (10,000 kept), every entry GET /audit shows verifies, the oldest kept one too', async () => {
    const agent = new Agent({ connections: 8 });
    try {
      let sent = 0;
      const worker = async () => {
        while (sent < 10_005) {
          sent++;
          const res = await request(`${f.gw.adminUrl}/auth/cache/flush`, { method: 'POST', headers: { 'x-admin-token': f.token }, dispatcher: agent });
          await res.body.dump();
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    } finally {
      await agent.close();
    }
    const shown: Shown[] = [];
    let cursor: string | undefined;
    do {
      const page = (await f.admin.GET('/audit', { params: { query: { limit: 1000, ...(cursor !== undefined ? { cursor } : {}) } } })).data!;
      shown.push(...(page.items as Shown[]));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    assert.equal(shown.length, 10_000);
    shown.reverse();
    const oldest = shown[0]!;
    assert.ok(oldest.seq > 1);
    assert.equal(oldest.prev_hash, '', 'the spec: the oldest retained entry shows an empty prev_hash');
    assert.equal(oldest.hash, specHash(oldest, oldest.chain_prev_hash), 'and still verifies');
    for (let i = 1; i < shown.length; i++) {
      const e = shown[i]!;
      assert.equal(e.prev_hash, shown[i - 1]!.hash, `seq ${e.seq} links`);
      assert.equal(e.hash, specHash(e, e.prev_hash), `seq ${e.seq} verifies`);
    }
  });
});
