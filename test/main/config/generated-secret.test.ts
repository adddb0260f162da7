// The `generated` secret module: the variable when set, else the file, else (at boot) a new
// secret of its kind written to the file with mode 0600; --validate writes nothing; bad
// settings are named.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGenerated } from '../../../src/main/config/generated-secret.js';
import type { LoadContext } from '../../../src/main/config/load-result.js';
import { configDir, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

function context(purpose: 'boot' | 'validate', env: NodeJS.ProcessEnv = {}): LoadContext {
  return { purpose, safeMode: false, env, configDir: configDir({}), issues: [], warnings: [], notes: [], unresolvedPaths: [], overridden: [] };
}

describe('generated secrets', () => {
  it('makes a token at boot, keeps it in the file (0600, folder made), and reads it back', async () => {
    const ctx = context('boot');
    const first = await resolveGenerated('auth.admin_token', { kind: 'token', file: 'var/admin-token' }, ctx);
    assert.match(first ?? '', /^gen_[A-Za-z0-9_-]{43}$/);
    const path = join(ctx.configDir, 'var', 'admin-token');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readFileSync(path, 'utf8'), `${first}\n`);
    assert.equal(await resolveGenerated('auth.admin_token', { kind: 'token', file: 'var/admin-token' }, ctx), first);
    assert.deepEqual(ctx.issues, []);
    assert.equal(ctx.notes.filter((n) => n.includes('generated a new token')).length, 1);
    assert.ok(!ctx.notes.join('\n').includes(first!), 'no note carries the secret');
  });

  it('makes an ed25519 PKCS#8 key', async () => {
    const ctx = context('boot');
    const pem = await resolveGenerated('auth.signing_key', { kind: 'ed25519', file: 'key.pem' }, ctx);
    assert.equal(createPrivateKey(pem!).asymmetricKeyType, 'ed25519');
  });

  it('takes the variable when it is set and not empty, and then writes no file', async () => {
    const ctx = context('boot', { MY_TOKEN: 'from-env' });
    assert.equal(await resolveGenerated('t', { kind: 'token', file: 'tok', env: 'MY_TOKEN' }, ctx), 'from-env');
    assert.equal(existsSync(join(ctx.configDir, 'tok')), false);
    const empty = context('boot', { MY_TOKEN: '' });
    assert.match((await resolveGenerated('t', { kind: 'token', file: 'tok', env: 'MY_TOKEN' }, empty)) ?? '', /^gen_/);
  });

  it('writes nothing under --validate: a note, or the file when there is one', async () => {
    const ctx = context('validate');
    assert.equal(await resolveGenerated('t', { kind: 'token', file: 'var/tok' }, ctx), undefined);
    assert.equal(existsSync(join(ctx.configDir, 'var')), false);
    assert.deepEqual(ctx.issues, []);
    assert.match(ctx.notes[0]!, /^t: generated at first boot into .*var\/tok$/);
    writeFileSync(join(ctx.configDir, 'tok2'), 'kept\n');
    assert.equal(await resolveGenerated('t', { kind: 'token', file: 'tok2' }, ctx), 'kept');
  });

  it('names bad settings and an empty file', async () => {
    const ctx = context('boot');
    assert.equal(await resolveGenerated('t', { kind: 'rsa', file: '', env: 'not a name', extra: 1 }, ctx), undefined);
    const text = ctx.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
    for (const part of ['t.settings: unknown setting "extra"', 't.settings.file', 't.settings.kind: must be one of token, ed25519', 't.settings.env'])
      assert.ok(text.includes(part), text);
    writeFileSync(join(ctx.configDir, 'empty'), '\n');
    assert.equal(await resolveGenerated('e', { kind: 'token', file: 'empty' }, ctx), undefined);
    assert.match(ctx.issues.at(-1)!.message, /is empty \(delete it and a new secret is made at boot\)/);
  });
});
