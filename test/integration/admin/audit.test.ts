// The audit log against real processes and a real sqlite file: GET /audit pages the ring
// newest first; the durable log verifies with `gateway audit verify`, which names an altered,
// reordered or deleted entry; a second gateway on the same sqlite store detaches its sink.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { adminClient } from '../../helpers/admin-client.js';
import { mockConfig, runCli, startGateway, writeConfig } from '../../helpers/gateway.js';
import { adminFixture, TOKEN_ENV, type AdminFixture } from './setup.js';

describe('audit log', () => {
  let f: AdminFixture;
  let dbPath: string;
  let pristine: string;
  before(async () => {
    f = await adminFixture({ over: { store: { module: 'sqlite', settings: { path: 'gateway.db' } } } });
    dbPath = join(f.files.dir, 'gateway.db');
    pristine = join(f.files.dir, 'pristine.db');
  });
  after(async () => {
    await f.close();
  });

  const verify = () => runCli(['audit', 'verify', '--config', f.files.configPath]);
  /** Start from the intact log, change it with `sql`, and verify. */
  async function tampered(sql: string): Promise<{ code: number | null; stdout: string }> {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
    copyFileSync(pristine, dbPath);
    const db = new Database(dbPath);
    db.exec(sql);
    db.close();
    return verify();
  }

  it('GET /audit pages the ring newest first with every mutation attempt', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await f.admin.PUT('/admin-auth', { body: { modules: ['admin-tokens'] } })).response.status, 200);
    assert.equal((await f.admin.PUT('/admin-auth', { body: { modules: ['nope'] } })).response.status, 400);
    assert.equal((await f.admin.POST('/config/rollback', { body: { version: 77 } })).response.status, 404);
    const first = (await f.admin.GET('/audit', { params: { query: { limit: 2 } } })).data!;
    assert.deepEqual(
      first.items.map((e) => [e.seq, e.action, e.outcome]),
      [
        [5, 'config.rollback', 'rejected'],
        [4, 'admin_auth.update', 'rejected'],
      ],
    );
    assert.equal(first.items[0]!.resource, 'config:77');
    assert.equal(first.items[0]!.prev_hash, first.items[1]!.hash);
    const rest = (await f.admin.GET('/audit', { params: { query: { limit: 10, cursor: first.next_cursor! } } })).data!;
    assert.deepEqual(
      rest.items.map((e) => e.seq),
      [3, 2, 1],
    );
    assert.equal(rest.next_cursor, null);
    assert.equal(rest.items[2]!.prev_hash, '');
    const bad = await f.admin.GET('/audit', { params: { query: { cursor: 'not-a-cursor' } } });
    assert.equal(bad.response.status, 400);
    assert.equal((await f.admin.GET('/audit', { params: { query: { limit: 0 } } })).response.status, 400);
  });

  it('gateway audit verify: intact log exits 0', async () => {
    await f.gw.stop();
    const result = await verify();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /intact: 5 entries in 1 run/);
    copyFileSync(dbPath, pristine);
  });

  it('names an altered entry', async () => {
    const result = await tampered("UPDATE audit_log SET outcome = 'applied' WHERE seq = 4");
    assert.equal(result.code, 1);
    assert.match(result.stdout, /altered: entry seq 4 /);
  });

  it('names a reordered entry', async () => {
    const swap = `
      CREATE TEMP TABLE a AS SELECT * FROM audit_log WHERE seq IN (2, 3);
      UPDATE audit_log SET seq = (SELECT seq FROM a WHERE a.id <> audit_log.id), ts = (SELECT ts FROM a WHERE a.id <> audit_log.id),
        action = (SELECT action FROM a WHERE a.id <> audit_log.id), resource = (SELECT resource FROM a WHERE a.id <> audit_log.id),
        outcome = (SELECT outcome FROM a WHERE a.id <> audit_log.id), principal = (SELECT principal FROM a WHERE a.id <> audit_log.id),
        prev_hash = (SELECT prev_hash FROM a WHERE a.id <> audit_log.id), hash = (SELECT hash FROM a WHERE a.id <> audit_log.id)
      WHERE seq IN (2, 3);`;
    const result = await tampered(swap);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /reordered: entry seq 2 /);
  });

  it('names a deleted entry, in the middle and at the end', async () => {
    const middle = await tampered('DELETE FROM audit_log WHERE seq = 3');
    assert.equal(middle.code, 1);
    assert.match(middle.stdout, /missing: entry seq 3 /);
    const last = await tampered('DELETE FROM audit_log WHERE seq = 5');
    assert.equal(last.code, 1);
    assert.match(last.stdout, /missing: entry seq 5 /);
  });
});

describe('audit log: one durable writer per store', () => {
  it('a second gateway on the same sqlite store detaches its durable sink and keeps its ring', async () => {
    const { startMockProvider } = await import('../../../src/mock/server.js');
    const mock = await startMockProvider({ port: 0 });
    const token = 'second-writer-test-token';
    const make = (dbPath: string) => {
      const { config, providers } = mockConfig(mock.url, {
        auth: { chain: [], admin_auth: ['admin-tokens'], admin_token: { env: TOKEN_ENV } },
        config: { locked: false, overlay: { file: 'overlay.json' } },
        store: { module: 'sqlite', settings: { path: dbPath } },
      });
      return writeConfig(config, providers);
    };
    const first = make('gateway.db');
    const shared = join(first.dir, 'gateway.db');
    const second = make(shared);
    const env = { [TOKEN_ENV]: token };
    const a = await startGateway(first, { env });
    const b = await startGateway(second, { env });
    try {
      await b.waitForLog('detaches its durable sink');
      assert.doesNotMatch(a.logs(), /detaches its durable sink/);
      const clientA = adminClient(a.adminUrl, { token });
      const clientB = adminClient(b.adminUrl, { token });
      assert.equal((await clientA.PUT('/admin-auth', { body: { modules: ['admin-tokens'] } })).response.status, 200);
      assert.equal((await clientB.PUT('/admin-auth', { body: { modules: ['admin-tokens'] } })).response.status, 200);
      assert.equal((await clientB.GET('/audit')).data!.items.length, 1, 'the second process keeps its ring');
    } finally {
      await b.stop();
      await a.stop();
      await mock?.close();
    }
    const db = new Database(shared, { readonly: true });
    const runs = db.prepare('SELECT COUNT(DISTINCT run) AS n, COUNT(*) AS entries FROM audit_log').get() as { n: number; entries: number };
    db.close();
    assert.deepEqual(runs, { n: 1, entries: 1 }, 'only the first process wrote the durable log');
    const verified = await runCli(['audit', 'verify', '--config', first.configPath]);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    rmSync(first.dir, { recursive: true, force: true });
    rmSync(second.dir, { recursive: true, force: true });
  });
});
