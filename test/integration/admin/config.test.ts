// The config endpoints against the real process: the effective config without secrets, the
// apply -> versions -> diff -> rollback round trip, expected_version conflicts, invalid
// configs (400 + a rejected audit entry; validate answers 200 ok:false), reload, settings in
// the overlay, and what survives a restart: overlay changes do, a whole apply does not.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chatStatus as chat } from '../../helpers/clients/raw.js';
import { adminFixture, liveConfig, type AdminFixture } from './setup.js';

const HOOK_SECRET = 'hook-signing-secret-5d1c0b';

describe('config endpoints', () => {
  let f: AdminFixture;
  before(async () => {
    f = await adminFixture();
    f.admin.addSecret(HOOK_SECRET);
  });
  after(async () => {
    await f.close();
  });

  const lastAudit = async (n: number) => (await f.admin.GET('/audit', { params: { query: { limit: n } } })).data!.items.map((e) => [e.action, e.outcome]);

  it('GET /config is the effective config, version 0 at boot, without secrets', async () => {
    const { data } = await f.admin.GET('/config');
    assert.equal(data!.version, 0);
    assert.deepEqual(data!.auth, { chain: [], upstream_credentials: 'own', open: true });
    assert.ok(data!.pools.some((p) => p.name === 'default' && p.members[0]!.model === 'lane-openai'));
    assert.ok(data!.models.some((m) => m.model === 'lane-openai' && m.provider === 'mock-openai'));
    assert.ok(data!.providers.some((p) => p.provider === 'mock-openai' && p.model_count === 1));
    assert.deepEqual(data!.hooks, []);
  });

  it('apply -> versions -> diff -> rollback round trip; each makes a new version', async () => {
    const base = liveConfig(f);
    const withHooks = {
      ...base,
      pools: { ...(base.pools as object), applied: { members: [{ model: 'lane-openai' }] } },
      hooks: {
        audit_tap: { kind: 'tap', webhook: 'http://127.0.0.1:9/tap', at: 'completion', secret: HOOK_SECRET },
        gatekeeper: { kind: 'gate', socket: '/tmp/gk.sock' },
      },
      global_hooks: ['audit_tap'],
    };
    const applied = await f.admin.POST('/config/apply', { body: { config: withHooks, expected_version: 0 } });
    assert.equal(applied.response.status, 200);
    assert.equal(applied.data!.applied, true);
    assert.equal(applied.data!.config_version, 1);
    assert.match(applied.data!.note, /not written to disk/);
    assert.equal(await chat(f.gw.url, 'applied'), 200, 'the applied pool is live on the workers');

    const effective = (await f.admin.GET('/config')).data!;
    assert.deepEqual(
      effective.hooks.map((h) => [h.name, h.kind, h.transport.kind, h.global]),
      [
        ['audit_tap', 'tap', 'webhook', true],
        ['gatekeeper', 'gate', 'socket', false],
      ],
    );
    assert.deepEqual(effective.global_hooks, ['audit_tap']);

    const changed = {
      ...withHooks,
      hooks: { audit_tap: { kind: 'tap', webhook: 'http://127.0.0.1:9/tap2' }, newcomer: { kind: 'tap', socket: '/tmp/n.sock' } },
      global_hooks: [],
    };
    const second = await f.admin.POST('/config/apply', { body: { config: changed, expected_version: 1 } });
    assert.equal(second.data!.config_version, 2);

    const versions = (await f.admin.GET('/config/versions')).data!;
    assert.deepEqual(
      versions.items.map((v) => v.version),
      [2, 1, 0],
    );
    assert.equal(versions.next_cursor, null);
    assert.equal(versions.items[0]!.principal, 'admin');
    const paged = (await f.admin.GET('/config/versions', { params: { query: { limit: 2 } } })).data!;
    assert.deepEqual(
      paged.items.map((v) => v.version),
      [2, 1],
    );
    const rest = (await f.admin.GET('/config/versions', { params: { query: { limit: 2, cursor: paged.next_cursor! } } })).data!;
    assert.deepEqual(
      rest.items.map((v) => v.version),
      [0],
    );
    assert.equal(rest.next_cursor, null);

    const detail = (await f.admin.GET('/config/versions/{v}', { params: { path: { v: 1 } } })).data!;
    assert.deepEqual(Object.keys(detail.hooks).sort(), ['audit_tap', 'gatekeeper']);
    assert.deepEqual(detail.global_hooks, ['audit_tap']);
    assert.equal(detail.hooks.gatekeeper!.at, null);

    const diff = (await f.admin.GET('/config/diff', { params: { query: { from: 1, to: 2 } } })).data!;
    assert.deepEqual(diff.hooks, { added: ['newcomer'], removed: ['gatekeeper'], changed: ['audit_tap'] });
    assert.deepEqual(diff.global_hooks, { from: ['audit_tap'], to: [] });
    const same = (await f.admin.GET('/config/diff', { params: { query: { from: 0, to: 0 } } })).data!;
    assert.deepEqual(same.hooks, { added: [], removed: [], changed: [] });
    assert.equal(same.global_hooks ?? null, null);

    const rolled = await f.admin.POST('/config/rollback', { body: { version: 1 } });
    assert.deepEqual(rolled.data, { restored_version: 1, config_version: 3 });
    assert.deepEqual((await f.admin.GET('/config')).data!.global_hooks, ['audit_tap']);
    const back = (await f.admin.GET('/config/diff', { params: { query: { from: 1, to: 3 } } })).data!;
    assert.deepEqual(back.hooks, { added: [], removed: [], changed: [] });

    const unknown = await f.admin.POST('/config/rollback', { body: { version: 99 } });
    assert.equal(unknown.response.status, 404);
    assert.equal(unknown.error!.error.code, 'not_found');
    assert.equal((await f.admin.GET('/config/versions/{v}', { params: { path: { v: 99 } } })).response.status, 404);
    assert.equal((await f.admin.GET('/config/diff', { params: { query: { from: 0, to: 99 } } })).response.status, 404);
    assert.deepEqual(await lastAudit(4), [
      ['config.rollback', 'rejected'],
      ['config.rollback', 'applied'],
      ['config.apply', 'applied'],
      ['config.apply', 'applied'],
    ]);
  });

  it('a stale expected_version is 409 version_conflict, audited as rejected', async () => {
    const live = (await f.admin.GET('/info')).data!.config_version;
    const { error, response } = await f.admin.POST('/config/apply', { body: { config: liveConfig(f), expected_version: live - 1 } });
    assert.equal(response.status, 409);
    assert.equal(error!.error.code, 'version_conflict');
    assert.equal((await f.admin.GET('/info')).data!.config_version, live, 'nothing changed');
    assert.deepEqual(await lastAudit(1), [['config.apply', 'rejected']]);
  });

  it('an invalid config: apply is 400 with every error and a rejected entry; validate is 200 ok:false', async () => {
    const live = (await f.admin.GET('/info')).data!.config_version;
    const invalid = { ...liveConfig(f), pools: { broken: { members: [{ model: 'no-such-lane' }] } }, bogus_setting: true };
    const applied = await f.admin.POST('/config/apply', { body: { config: invalid } });
    assert.equal(applied.response.status, 400);
    assert.equal(applied.error!.error.code, 'invalid_request');
    assert.match(applied.error!.error.message, /no-such-lane/);
    assert.match(applied.error!.error.message, /bogus_setting/);
    assert.deepEqual(await lastAudit(1), [['config.apply', 'rejected']]);
    assert.equal((await f.admin.GET('/info')).data!.config_version, live);

    const validated = await f.admin.POST('/config/validate', { body: { config: invalid } });
    assert.equal(validated.response.status, 200);
    assert.equal(validated.data!.ok, false);
    assert.ok(validated.data!.errors.length >= 2, validated.data!.errors.join('\n'));
    const good = await f.admin.POST('/config/validate', { body: { config: liveConfig(f) } });
    assert.deepEqual(good.data, { ok: true, errors: [] });
    assert.equal((await f.admin.GET('/info')).data!.config_version, live, 'validate changes nothing');
  });

  it('a malformed validate body is 400 invalid_request', async () => {
    const notJson = await fetch(`${f.gw.adminUrl}/config/validate`, {
      method: 'POST',
      headers: { 'x-admin-token': f.token, 'content-type': 'application/json' },
      body: '{"config":',
    });
    assert.equal(notJson.status, 400);
    const wrongShape = await f.admin.POST('/config/validate', { body: { cfg: {} } as never });
    assert.equal(wrongShape.response.status, 400);
    assert.equal(wrongShape.error!.error.code, 'invalid_request');
  });

  it('reload re-reads the files: a new version, audited; a broken file is 400 and changes nothing', async () => {
    const live = (await f.admin.GET('/info')).data!.config_version;
    const { data } = await f.admin.POST('/config/reload');
    assert.deepEqual(data, { reloaded: true, config_version: live + 1, not_applied: [] });
    assert.deepEqual(await lastAudit(1), [['config.reload', 'applied']]);

    const { readFileSync, writeFileSync } = await import('node:fs');
    const good = readFileSync(f.files.configPath, 'utf8');
    writeFileSync(f.files.configPath, `${good}\nnot_a_setting: 1\n`);
    try {
      const broken = await f.admin.POST('/config/reload');
      assert.equal(broken.response.status, 400);
      assert.match(broken.error!.error.message, /not_a_setting/);
      assert.deepEqual(await lastAudit(1), [['config.reload', 'rejected']]);
      assert.equal((await f.admin.GET('/info')).data!.config_version, live + 1);
    } finally {
      writeFileSync(f.files.configPath, good);
    }
  });

  it('PUT /config/settings stores TLS references in the overlay; a reference that does not resolve is refused', async () => {
    const missing = await f.admin.PUT('/config/settings', { body: { tls: { cert: { env: 'NO_SUCH_TLS_CERT_VAR' }, key: { file: '/no/such/key.pem' } } } });
    assert.equal(missing.response.status, 400);
    assert.match(missing.error!.error.message, /NO_SUCH_TLS_CERT_VAR/);
    const literal = await f.admin.PUT('/config/settings', { body: { tls: { cert: 'inline PEM is not a reference', key: { env: 'X' } } } as never });
    assert.equal(literal.response.status, 400);

    const refs = { cert: { file: `${process.cwd()}/test/fixtures/tls/server.pem` }, key: { file: `${process.cwd()}/test/fixtures/tls/server-key.pem` } };
    const { data, response } = await f.admin.PUT('/config/settings', { body: { tls: refs } });
    assert.equal(response.status, 200);
    assert.deepEqual(data!.reload_to_apply, ['tls']);
    assert.match(data!.note, /restart/);
    assert.deepEqual((f.overlay().settings as { tls: unknown }).tls, refs);
    assert.deepEqual(await lastAudit(3), [
      ['config.settings', 'applied'],
      ['config.settings', 'rejected'],
      ['config.settings', 'rejected'],
    ]);
  });

  it('after a restart: config_version is 0, the applied config is gone, the overlay changes remain', async () => {
    // Settings would turn TLS on at the next start; take them out of the overlay for this check.
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const overlay = f.overlay();
    delete (overlay.settings as Record<string, unknown>).tls;
    overlay.admin_auth = { modules: ['admin-tokens'] };
    writeFileSync(join(f.files.dir, 'overlay.json'), JSON.stringify(overlay));
    const applied = await f.admin.POST('/config/apply', {
      body: { config: { ...liveConfig(f), pools: { ...(liveConfig(f).pools as object), ephemeral: { members: [{ model: 'lane-openai' }] } } } },
    });
    assert.equal(applied.response.status, 200);
    assert.equal(await chat(f.gw.url, 'ephemeral'), 200);

    await f.restart();
    const info = (await f.admin.GET('/info')).data!;
    assert.equal(info.config_version, 0);
    assert.equal(info.config_persistence, true);
    assert.deepEqual(
      (await f.admin.GET('/config/versions')).data!.items.map((v) => v.version),
      [0],
    );
    assert.notEqual(await chat(f.gw.url, 'ephemeral'), 200, 'a whole apply is not written to disk');
    assert.deepEqual((await f.admin.GET('/admin-auth')).data!.modules, ['admin-tokens'], 'the overlay admin chain is in effect');
  });
});
