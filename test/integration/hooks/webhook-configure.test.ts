// Webhook hooks get `configure` at boot like socket hooks get it on connect (issue 46): a
// webhook hook of the config file reports the desired settings without a settings PATCH, so
// GET /hooks/{name}/status shows no drift; so does one registered through POST /hooks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminFixture, type AdminFixture } from '../admin/setup.js';
import { eventually, HookDir, type HookProcess } from './hook-kit.js';

describe('webhook hooks: configure at boot (issue 46)', () => {
  let hookDir: HookDir;
  let tap: HookProcess;
  let later: HookProcess;
  let f: AdminFixture;
  before(async () => {
    hookDir = new HookDir('gw-webhook-configure-');
    tap = await hookDir.webhookTap('boot');
    later = await hookDir.webhookTap('later');
    f = await adminFixture({ over: { hooks: { 'boot-tap': { kind: 'tap', at: 'completion', webhook: tap.target, settings: { level: 3 } } } } });
  });
  after(async () => {
    await f?.close();
    await hookDir?.close();
  });

  const status = async (name: string) => (await f.admin.GET('/hooks/{name}/status', { params: { path: { name } } })).data!;

  it('a webhook hook of the file reports the desired settings with no PATCH: drift false', async () => {
    assert.ok(await eventually(() => tap.received().some((m) => m.type === 'configure')), 'configure was sent at boot');
    const configure = tap.received().find((m) => m.type === 'configure');
    assert.deepEqual([configure.settings, configure.settings_version], [{ level: 3 }, 1]);
    const s = await status('boot-tap');
    assert.deepEqual(s.reported, { settings: { level: 3 }, settings_version: 1 });
    assert.equal(s.drift, false);
  });

  it('a webhook hook registered through POST /hooks is configured too', async () => {
    const res = await f.admin.POST('/hooks', { body: { name: 'later-tap', kind: 'tap', webhook: later.target, settings: { x: 'y' } } as never });
    assert.equal(res.response.status, 201, JSON.stringify(res.error));
    assert.ok(await eventually(async () => (await status('later-tap')).drift === false));
    assert.equal(later.received().filter((m) => m.type === 'configure').length, 1, 'configured once');
  });
});
