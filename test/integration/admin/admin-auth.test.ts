// Admin authentication against the real process: 401 without or with a wrong token, both
// headers accepted, the open posture reported as configured:false, and the PUT /admin-auth
// round trip (a new config version, audited, persisted in the overlay across a restart).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminClient } from '../../helpers/admin-client.js';
import { adminFixture, type AdminFixture } from './setup.js';

describe('admin auth', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture();
  });
  after(async () => {
    await f.close();
  });

  it('a missing token is 401 unauthorized', async () => {
    const anon = adminClient(f.gw.adminUrl, { secrets: [f.token] });
    const { error, response } = await anon.GET('/info');
    assert.equal(response.status, 401);
    assert.equal(error?.error.code, 'unauthorized');
  });

  it('a wrong token is 401, by either header', async () => {
    for (const client of [
      adminClient(f.gw.adminUrl, { token: 'wrong', secrets: [f.token] }),
      adminClient(f.gw.adminUrl, { bearer: 'wrong', secrets: [f.token] }),
    ]) {
      const { error, response } = await client.GET('/admin-auth');
      assert.equal(response.status, 401);
      assert.equal(error?.error.code, 'unauthorized');
    }
  });

  it('the token is accepted as x-admin-token and as Authorization: Bearer', async () => {
    for (const client of [f.admin, adminClient(f.gw.adminUrl, { bearer: f.token })]) {
      const { data, response } = await client.GET('/admin-auth');
      assert.equal(response.status, 200);
      assert.deepEqual(data, { configured: true, modules: ['admin-tokens'] });
    }
  });

  it('unknown paths are 404 and a wrong method is 405 with Allow, in the error envelope', async () => {
    const missing = await fetch(`${f.gw.adminUrl}/no-such-thing`, { headers: { 'x-admin-token': f.token } });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
    const wrong = await fetch(`${f.gw.adminUrl}/info`, { method: 'DELETE', headers: { 'x-admin-token': f.token } });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'GET');
    assert.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'method_not_allowed');
  });

  it('an unknown body field is 400 invalid_request, audited as rejected', async () => {
    const { error, response } = await f.admin.PUT('/admin-auth', { body: { modules: ['admin-tokens'], extra: 1 } as never });
    assert.equal(response.status, 400);
    assert.equal(error?.error.code, 'invalid_request');
    const { data } = await f.admin.GET('/audit', { params: { query: { limit: 1 } } });
    assert.deepEqual(
      data!.items.map((e) => [e.action, e.outcome, e.principal]),
      [['admin_auth.update', 'rejected', 'admin']],
    );
  });

  it('PUT /admin-auth: a new config version, audited, persisted in the overlay; an invalid chain is refused', async () => {
    const before = (await f.admin.GET('/info')).data!.config_version;
    const bad = await f.admin.PUT('/admin-auth', { body: { modules: ['no-such-module'] } });
    assert.equal(bad.response.status, 400);
    assert.match(bad.error!.error.message, /unknown auth module "no-such-module"/);

    const { data, response } = await f.admin.PUT('/admin-auth', { body: { modules: ['admin-tokens'] } });
    assert.equal(response.status, 200);
    assert.equal(data!.configured, true);
    assert.deepEqual(data!.modules, ['admin-tokens']);
    assert.equal(data!.applied, true);
    assert.equal(data!.config_version, before + 1);
    assert.match(data!.note, /overlay/);
    assert.deepEqual(f.overlay().admin_auth, { modules: ['admin-tokens'] });

    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 2 } } })).data!.items;
    assert.deepEqual(
      audit.map((e) => [e.action, e.outcome]),
      [
        ['admin_auth.update', 'applied'],
        ['admin_auth.update', 'rejected'],
      ],
    );
    const versions = (await f.admin.GET('/config/versions')).data!.items;
    assert.equal(versions[0]!.version, before + 1);
    assert.match(versions[0]!.summary, /admin-auth/);
  });

  it('opening the plane through PUT /admin-auth survives a restart; closing it again too', async () => {
    const opened = await f.admin.PUT('/admin-auth', { body: { modules: [] } });
    assert.equal(opened.data!.configured, false);
    assert.match(opened.data!.note, /OPEN/);
    await f.restart();
    const anon = adminClient(f.gw.adminUrl, { secrets: [f.token] });
    const view = await anon.GET('/admin-auth');
    assert.equal(view.response.status, 200, 'the overlay chain [] is in effect after the restart');
    assert.deepEqual(view.data, { configured: false, modules: [] });
    const info = await anon.GET('/info');
    assert.equal(info.data!.config_persistence, true);
    assert.equal(info.data!.config_version, 0, 'config_version resets to 0 on restart');

    const closed = await anon.PUT('/admin-auth', { body: { modules: ['admin-tokens'] } });
    assert.equal(closed.response.status, 200);
    assert.equal((await anon.GET('/info')).response.status, 401);
    const audit = (await f.admin.GET('/audit')).data!.items;
    assert.deepEqual(
      audit.map((e) => [e.action, e.outcome, e.principal]),
      [['admin_auth.update', 'applied', 'anonymous']],
    );
  });
});

describe('admin auth: the open posture', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture({ open: true, locked: true });
  });
  after(async () => {
    await f.close();
  });

  it('is reported as configured:false, serves anyone as anonymous, and warns at boot', async () => {
    const anon = adminClient(f.gw.adminUrl);
    assert.deepEqual((await anon.GET('/admin-auth')).data, { configured: false, modules: [] });
    assert.equal((await anon.GET('/info')).data!.config_persistence, false, 'a locked config persists nothing');
    assert.match(f.gw.logs(), /admin plane is open/);
  });
});
