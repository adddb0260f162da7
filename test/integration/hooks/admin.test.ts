// The hook admin endpoints against the real process and the example socket gate: reads
// (HookView, health probe, status with drift and the fail-open view, the schema round trip
// through describe), and the writes of API-DECISIONS.md: each rule refused (400, audited
// rejected), each write audited, a new config version persisted in the overlay and diffed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { adminFixture, type AdminFixture } from '../admin/setup.js';
import { HookDir, type HookProcess } from './hook-kit.js';

describe('hook admin endpoints', () => {
  let f: AdminFixture;
  let hookDir: HookDir;
  let gate: HookProcess;

  before(async () => {
    hookDir = new HookDir('gw-hook-admin-');
    gate = await hookDir.socketGate('admin-gate');
    f = await adminFixture();
  });
  after(async () => {
    await f?.close();
    await hookDir?.close();
  });

  const post = (body: Record<string, unknown>) => f.admin.POST('/hooks', { body: body as never });
  const lastAudit = async () => (await f.admin.GET('/audit', { params: { query: { limit: 1 } } })).data!.items[0]!;

  it('POST /hooks registers: 201 HookView, audited, a new config version in the overlay, diffed', async () => {
    const before = (await f.admin.GET('/info')).data!.config_version;
    const res = await post({
      name: 'router',
      kind: 'gate',
      socket: gate.target,
      on_error: 'first',
      timeout_ms: 200,
      priority: 7,
      settings: { order: ['lane-openai'] },
    });
    assert.equal(res.response.status, 201);
    assert.deepEqual(res.data, {
      name: 'router',
      kind: 'gate',
      transport: { kind: 'socket', target: gate.target },
      prompt: 'no',
      user: 'no',
      priority: 7,
      at: null,
      on_error: 'first',
      timeout_ms: 200,
      settings: { order: ['lane-openai'] },
      global: false,
    });
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.resource, audit.outcome], ['hook.register', 'hook:router', 'applied']);
    const after = (await f.admin.GET('/info')).data!.config_version;
    assert.equal(after, before + 1);
    const overlay = f.overlay() as { config?: unknown; hooks: { registered: Record<string, unknown> } };
    assert.ok(overlay.hooks.registered.router !== undefined, 'the registration is persisted in the overlay');
    assert.equal(overlay.config, undefined, 'the registration alone, never the whole live config');
    const diff = await f.admin.GET('/config/diff', { params: { query: { from: before, to: after } } });
    assert.deepEqual(diff.data!.hooks, { added: ['router'], removed: [], changed: [] });
    const version = await f.admin.GET('/config/versions/{v}', { params: { path: { v: after } } });
    assert.equal(version.data!.hooks.router!.on_error, 'first');
    const list = await f.admin.GET('/hooks');
    assert.deepEqual(
      list.data!.items.map((h) => h.name),
      ['router'],
    );
    assert.equal((await f.admin.GET('/plugins', { params: { query: { type: 'hooks' } } })).data!.items[0]!.target, gate.target);
  });

  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a reserved name', { name: 'weighted', kind: 'tap', socket: '/tmp/x.sock' }, /reserved/],
    ['both transports', { name: 'two', kind: 'tap', socket: '/tmp/x.sock', webhook: 'http://127.0.0.1:9/' }, /exactly one transport/],
    ['no transport', { name: 'none', kind: 'tap' }, /exactly one transport/],
    ['priority over 65535', { name: 'prio', kind: 'tap', socket: '/tmp/x.sock', priority: 65536 }, /priority/],
    ['`at` on a gate', { name: 'gat', kind: 'gate', socket: '/tmp/x.sock', at: 'request' }, /taps only/],
    ['on_error naming no gate', { name: 'oe', kind: 'gate', socket: '/tmp/x.sock', on_error: 'ghost' }, /ghost/],
    ['a fallback chain that loops', { name: 'loop', kind: 'gate', socket: '/tmp/x.sock', on_error: 'loop' }, /loops/],
    ['timeout_ms out of bounds', { name: 'slow', kind: 'gate', socket: '/tmp/x.sock', timeout_ms: 600_000 }, /timeout_ms/],
    ['a webhook URL that does not parse (issue 46)', { name: 'badurl', kind: 'tap', webhook: 'http://a:99999/hook' }, /parses/],
    [
      'a NAT64 spelling of the metadata address (issue 46)',
      { name: 'nat64', kind: 'tap', webhook: 'http://[64:ff9b::169.254.169.254]/hook' },
      /cloud-metadata/,
    ],
    ['an IPv4-compatible spelling of the metadata address (issue 46)', { name: 'compat', kind: 'tap', webhook: 'http://[::a9fe:a9fe]/hook' }, /cloud-metadata/],
    ['a name with "|" (issue 46)', { name: 'a|b', kind: 'tap', socket: '/tmp/x.sock' }, /must not contain/],
  ];
  for (const [what, body, why] of refusals) {
    it(`POST /hooks refuses ${what} (400, audited rejected, no new version)`, async () => {
      const before = (await f.admin.GET('/info')).data!.config_version;
      const res = await post(body);
      assert.equal(res.response.status, 400, JSON.stringify(res.error));
      assert.match(JSON.stringify(res.error), why);
      assert.equal((await f.admin.GET('/info')).data!.config_version, before);
      const audit = await lastAudit();
      assert.deepEqual([audit.action, audit.outcome], ['hook.register', 'rejected']);
    });
  }

  it('names of Object.prototype are names like any other: 404 when absent, never a 500; __proto__ is refused (issue 46)', async () => {
    for (const name of ['valueOf', 'toString', 'constructor', 'hasOwnProperty']) {
      assert.equal((await f.admin.GET('/hooks/{name}', { params: { path: { name } } })).response.status, 404, name);
      assert.equal((await f.admin.DELETE('/hooks/{name}', { params: { path: { name } } })).response.status, 404, name);
    }
    const named = await post({ name: 'toString', kind: 'tap', socket: gate.target });
    assert.equal(named.response.status, 201, JSON.stringify(named.error));
    assert.equal((await f.admin.DELETE('/hooks/{name}', { params: { path: { name: 'toString' } } })).response.status, 200);
    assert.equal((await post({ name: '__proto__', kind: 'tap', socket: gate.target })).response.status, 400);
  });

  it('a duplicate name is 409 conflict', async () => {
    assert.equal((await post({ name: 'router', kind: 'tap', socket: gate.target })).response.status, 409);
  });

  it('health: a connect probe for a socket (true / false), null with a detail for a webhook', async () => {
    assert.equal((await f.admin.GET('/hooks/{name}/health', { params: { path: { name: 'router' } } })).data!.reachable, true);
    assert.equal((await post({ name: 'absent', kind: 'tap', socket: join(hookDir.dir, 'nobody.sock') })).response.status, 201);
    const absent = (await f.admin.GET('/hooks/{name}/health', { params: { path: { name: 'absent' } } })).data!;
    assert.equal(absent.reachable, false);
    assert.match(absent.detail!, /ENOENT|ECONNREFUSED/);
    assert.equal((await post({ name: 'hooked', kind: 'tap', webhook: 'http://127.0.0.1:9/tap' })).response.status, 201);
    const web = (await f.admin.GET('/hooks/{name}/health', { params: { path: { name: 'hooked' } } })).data!;
    assert.equal(web.reachable, null);
    assert.equal(typeof web.detail, 'string');
  });

  it('status: no drift when the hook runs the desired settings; PATCH settings bumps the version and configures it', async () => {
    const first = (await f.admin.GET('/hooks/{name}/status', { params: { path: { name: 'router' } } })).data!;
    assert.equal(first.drift, false);
    assert.deepEqual(first.reported, { settings: { order: ['lane-openai'] }, settings_version: 1 });
    assert.equal(first.note, null);
    assert.equal(first.source, 'live');
    assert.ok(first.metrics.some((m) => m.name === 'decisions'));
    const patched = await f.admin.PATCH('/hooks/{name}/settings', { params: { path: { name: 'router' } }, body: { settings: { order: [] } } });
    assert.equal(patched.response.status, 200);
    assert.deepEqual(patched.data!.settings, { order: [] });
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.resource, audit.outcome], ['hook.configure', 'hook:router', 'applied']);
    const second = (await f.admin.GET('/hooks/{name}/status', { params: { path: { name: 'router' } } })).data!;
    assert.deepEqual(second.desired, { settings: { order: [] }, settings_version: 2 });
    assert.deepEqual(second.reported, { settings: { order: [] }, settings_version: 2 });
    assert.equal(second.drift, false);
  });

  it('status: a hook reporting other settings shows drift: true; a silent hook the fail-open view', async () => {
    assert.equal((await post({ name: 'drifter', kind: 'tap', socket: gate.target, settings: { report: { something: 'else' } } })).response.status, 201);
    const drift = (await f.admin.GET('/hooks/{name}/status', { params: { path: { name: 'drifter' } } })).data!;
    assert.equal(drift.drift, true);
    assert.deepEqual(drift.reported!.settings, { something: 'else' });
    const silent = (await f.admin.GET('/hooks/{name}/status', { params: { path: { name: 'absent' } } })).data!;
    assert.equal(silent.reported, null);
    assert.equal(silent.drift, null);
    assert.equal(typeof silent.note, 'string');
    assert.deepEqual(silent.metrics, []);
  });

  it('schema: the settings schema round-trips through describe; null when the hook does not answer', async () => {
    const schema = (await f.admin.GET('/hooks/{name}/schema', { params: { path: { name: 'router' } } })).data!;
    assert.deepEqual(Object.keys((schema.schema as { properties: object }).properties).sort(), [
      'message',
      'mode',
      'order',
      'rewrite',
      'sleep_ms',
      'status',
      'tap_sleep_ms',
    ]);
    assert.equal((await f.admin.GET('/hooks/{name}/schema', { params: { path: { name: 'absent' } } })).data!.schema, null);
  });

  it('DELETE /hooks/{name}: 409 while another gate falls back to it; then 200, audited, versioned', async () => {
    assert.equal((await post({ name: 'backup', kind: 'gate', socket: gate.target, on_error: 'router' })).response.status, 201);
    const refused = await f.admin.DELETE('/hooks/{name}', { params: { path: { name: 'router' } } });
    assert.equal(refused.response.status, 409);
    const before = (await f.admin.GET('/info')).data!.config_version;
    const deleted = await f.admin.DELETE('/hooks/{name}', { params: { path: { name: 'backup' } } });
    assert.equal(deleted.response.status, 200);
    assert.equal(deleted.data!.name, 'backup');
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.resource, audit.outcome], ['hook.delete', 'hook:backup', 'applied']);
    assert.equal((await f.admin.GET('/info')).data!.config_version, before + 1);
    assert.equal((await f.admin.GET('/hooks/{name}', { params: { path: { name: 'backup' } } })).response.status, 404);
    assert.equal((await f.admin.DELETE('/hooks/{name}', { params: { path: { name: 'backup' } } })).response.status, 404);
  });
});
