// The overlay holds what the spec says and nothing more (issue 46): a hook write persists the
// hook registry's change alone (never the rest of the live config, never a literal secret), so
// an applied config stays "not written to disk" across a later hook write and a restart, an edit
// of the file followed by POST /config/reload takes effect, and reload names what it could not
// apply (a setting the overlay overrides, a setting read only at start).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatStatus as chat } from '../../helpers/clients/raw.js';
import { parse, stringify } from 'yaml';
import { adminFixture, liveConfig, type AdminFixture } from './setup.js';

const SECRET_ENV = 'GATEWAY_TEST_HOOK_SECRET';
const HOOK_SECRET = 'hook-signing-secret-overlay-7c21';
const LITERAL = 'literal-secret-never-on-disk-93ab';

describe('the overlay holds the hook registry alone (issue 46)', () => {
  let f: AdminFixture;
  const overlayText = () => readFileSync(join(f.files.dir, 'overlay.json'), 'utf8');
  const editFile = (edit: (doc: Record<string, any>) => void) => {
    const doc = parse(readFileSync(f.files.configPath, 'utf8')) as Record<string, any>;
    edit(doc);
    writeFileSync(f.files.configPath, stringify(doc));
  };

  before(async () => {
    f = await adminFixture({
      env: { [SECRET_ENV]: HOOK_SECRET },
      over: { hooks: { 'file-tap': { kind: 'tap', webhook: 'http://127.0.0.1:9/file-tap', settings: { from: 'file' } } } },
    });
    f.admin.addSecret(HOOK_SECRET);
    f.admin.addSecret(LITERAL);
  });
  after(async () => {
    await f.close();
  });

  it('a literal webhook secret is refused (400, audited rejected) and never reaches the overlay', async () => {
    const res = await f.admin.POST('/hooks', { body: { name: 'plain', kind: 'tap', webhook: 'http://127.0.0.1:9/plain', secret: LITERAL } as never });
    assert.equal(res.response.status, 400);
    assert.match(res.error!.error.message, /secret reference/);
    const audit = (await f.admin.GET('/audit', { params: { query: { limit: 1 } } })).data!.items[0]!;
    assert.deepEqual([audit.action, audit.outcome], ['hook.register', 'rejected']);
    assert.equal((await f.admin.GET('/hooks/{name}', { params: { path: { name: 'plain' } } })).response.status, 404);
    let text = '';
    try {
      text = overlayText();
    } catch {
      // no overlay written at all
    }
    assert.ok(!text.includes(LITERAL));
  });

  it('an applied config, then a hook write: the overlay gets the registration alone', async () => {
    const config = liveConfig(f);
    const applied = await f.admin.POST('/config/apply', {
      body: { config: { ...config, pools: { ...(config.pools as object), 'applied-only': { members: [{ model: 'lane-openai' }] } } } },
    });
    assert.equal(applied.response.status, 200);
    assert.equal(await chat(f.gw.url, 'applied-only'), 200);
    const registered = await f.admin.POST('/hooks', {
      body: { name: 'signed', kind: 'tap', webhook: 'http://127.0.0.1:9/signed', secret: { env: SECRET_ENV } } as never,
    });
    assert.equal(registered.response.status, 201, JSON.stringify(registered.error));
    const patched = await f.admin.PATCH('/hooks/{name}/settings', { params: { path: { name: 'file-tap' } }, body: { settings: { from: 'api' } } });
    assert.equal(patched.response.status, 200);
    const overlay = JSON.parse(overlayText()) as Record<string, any>;
    assert.equal(overlay.config, undefined, 'no copy of the live config');
    assert.deepEqual(overlay.hooks, {
      registered: { signed: { kind: 'tap', webhook: 'http://127.0.0.1:9/signed', secret: { env: SECRET_ENV } } },
      deleted: [],
      settings: { 'file-tap': { from: 'api' } },
    });
    assert.ok(!overlayText().includes(HOOK_SECRET), 'a reference, not the secret');
  });

  it('after a restart: the applied pool is gone, the hook changes remain', async () => {
    await f.restart();
    assert.equal(await chat(f.gw.url, 'applied-only'), 404, 'the applied config was not written to disk');
    const signed = (await f.admin.GET('/hooks/{name}', { params: { path: { name: 'signed' } } })).data!;
    assert.equal(signed.transport.target, 'http://127.0.0.1:9/signed');
    assert.deepEqual((await f.admin.GET('/hooks/{name}', { params: { path: { name: 'file-tap' } } })).data!.settings, { from: 'api' });
  });

  it('an edit of the file plus POST /config/reload takes effect; reload names what it could not apply', async () => {
    const port = Number(new URL(f.gw.url).port);
    editFile((doc) => {
      doc.pools['from-file'] = { members: [{ model: 'lane-openai' }] };
      doc.hooks['file-tap'].settings = { from: 'file, edited' };
      doc.listen = `127.0.0.1:${port + 1}`;
    });
    const { data, response } = await f.admin.POST('/config/reload');
    assert.equal(response.status, 200);
    assert.equal(await chat(f.gw.url, 'from-file'), 200, 'the file edit is live');
    assert.ok(
      data!.not_applied.some((line) => line.startsWith('listen:') && /restart/.test(line)),
      data!.not_applied.join('\n'),
    );
    assert.ok(
      data!.not_applied.some((line) => line.startsWith('hooks.file-tap.settings:') && /admin API/.test(line)),
      data!.not_applied.join('\n'),
    );
    assert.equal(data!.not_applied.length, 2, data!.not_applied.join('\n'));
    assert.deepEqual(
      (await f.admin.GET('/hooks/{name}', { params: { path: { name: 'file-tap' } } })).data!.settings,
      { from: 'api' },
      'the API change still wins',
    );
    editFile((doc) => (doc.listen = `127.0.0.1:${port}`));
  });

  it('a file hook deleted through the API stays deleted across reload, and reload says so', async () => {
    const deleted = await f.admin.DELETE('/hooks/{name}', { params: { path: { name: 'file-tap' } } });
    assert.equal(deleted.response.status, 200);
    assert.deepEqual((JSON.parse(overlayText()) as { hooks: { deleted: string[] } }).hooks.deleted, ['file-tap']);
    const { data } = await f.admin.POST('/config/reload');
    assert.equal((await f.admin.GET('/hooks/{name}', { params: { path: { name: 'file-tap' } } })).response.status, 404);
    assert.deepEqual(
      data!.not_applied.filter((line) => line.startsWith('hooks.')),
      [`hooks.file-tap: deleted through the admin API (the overlay ${join(f.files.dir, 'overlay.json')}); the file's definition is not in effect`],
    );
  });
});
