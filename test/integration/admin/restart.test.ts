// POST /restart: refused (409 conflict) when no supervisor is detected; with
// GATEWAY_SUPERVISED=1 it answers, drains an in-flight request to the end, and exits 0.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { adminFixture, type AdminFixture } from './setup.js';

// Whatever runs the tests (a systemd unit, a pod) must not look like the gateway's supervisor.
const NO_SUPERVISOR = { INVOCATION_ID: '', NOTIFY_SOCKET: '', KUBERNETES_SERVICE_HOST: '', GATEWAY_SUPERVISED: '' };

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('POST /restart', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture({ env: NO_SUPERVISOR, over: { store: { module: 'sqlite', settings: { path: 'gateway.db' } } } });
  });
  after(async () => {
    await f.close();
  });

  it('without a supervisor: 409 conflict unless confirm is true, audited as rejected', async () => {
    const { error, response } = await f.admin.POST('/restart', { body: {} });
    assert.equal(response.status, 409);
    assert.equal(error!.error.code, 'conflict');
    assert.match(error!.error.message, /supervisor/);
    const bare = await f.admin.POST('/restart');
    assert.equal(bare.response.status, 409);
    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 1 } } })).data!.items;
    assert.deepEqual(
      audit.map((e) => [e.action, e.resource, e.outcome]),
      [['server.restart', 'process', 'rejected']],
    );
    assert.equal(f.gw.proc.exitCode, null, 'still running');
  });

  it('with GATEWAY_SUPERVISED=1: answers, drains the in-flight request, exits 0', async () => {
    await f.restart({ GATEWAY_SUPERVISED: '1' });
    const exited = new Promise<number | null>((resolve) => f.gw.proc.once('exit', (code) => resolve(code)));
    const inFlight = request(`${f.gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'slow one [mock latency_ms=1500]' }] }),
    });
    await until(() => f.mock.stats().inflight > 0);
    const { data, response } = await f.admin.POST('/restart', { body: {} });
    assert.equal(response.status, 200);
    assert.equal(data!.restarting, true);
    assert.equal(data!.supervisor, 'GATEWAY_SUPERVISED');
    const res = await inFlight;
    assert.equal(res.statusCode, 200, 'the in-flight request completed');
    await res.body.dump();
    assert.equal(await exited, 0);
    assert.match(f.gw.logs(), /POST \/restart/);
    // The applied entry reached the durable log before the process exited.
    const db = new Database(join(f.files.dir, 'gateway.db'), { readonly: true });
    const last = db.prepare('SELECT action, resource, outcome, principal FROM audit_log ORDER BY id DESC LIMIT 1').get();
    db.close();
    assert.deepEqual({ ...(last as object) }, { action: 'server.restart', resource: 'process', outcome: 'applied', principal: 'admin' });
  });
});
