// The first five minutes: a fresh copy of the shipped config/ (no var/, no GATEWAY_* variable
// set) passes `--validate` before anything else has run, writing nothing; a direct start then
// makes var/, the admin token and the key-signing key (mode 0600), answers the admin API with
// that token and /metrics with a minted key (behind the key chain); a restart keeps both, so a
// key minted before it still verifies; a variable, when set, wins over the file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { runCli, startGateway, type RunningGateway } from '../helpers/gateway.js';
import { registerSecret } from '../helpers/secret-scan.js';

// Compiled to dist/test/integration/: the repository root is three levels up.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Nothing of the test machine's own: a fresh clone's shell has none of these. */
const CLEAN_ENV = { GATEWAY_ADMIN_TOKEN: undefined, GATEWAY_SIGNING_KEY: undefined, GATEWAY_CONFIG: undefined };

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh clone's config/ in a temp root: the files as shipped, and no var/. */
function freshClone(): { root: string; configPath: string } {
  const root = mkdtempSync(join(tmpdir(), 'gw-fresh-'));
  made.push(root);
  cpSync(join(ROOT, 'config'), join(root, 'config'), { recursive: true });
  return { root, configPath: join(root, 'config', 'gateway.yaml') };
}

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await request(url, { headers: { ...headers, connection: 'close' } });
  return { status: res.statusCode, text: await res.body.text() };
}

async function mint(gw: RunningGateway, token: string, name: string): Promise<string> {
  const res = await request(`${gw.adminUrl}/keys`, {
    method: 'POST',
    headers: { 'x-admin-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ name, allowed_pools: ['*'] }),
  });
  const body = (await res.body.json()) as { secret: string };
  assert.equal(res.statusCode, 201, JSON.stringify(body));
  registerSecret(body.secret);
  return body.secret;
}

describe('a fresh clone', () => {
  it('passes --validate on the shipped config before anything else is run, and writes nothing', async () => {
    const { root, configPath } = freshClone();
    const r = await runCli(['--validate', '--config', configPath], CLEAN_ENV);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /generated at first boot/);
    assert.equal(existsSync(join(root, 'var')), false, '--validate writes nothing');
  });

  it('starts directly: makes var/ and its secrets, serves the admin API and /metrics behind the key chain, and keeps them over a restart', async () => {
    const { root, configPath } = freshClone();
    let gw = await startGateway({ dir: join(root, 'config'), configPath }, { env: CLEAN_ENV });
    try {
      const tokenPath = join(root, 'var', 'admin-token');
      const keyPath = join(root, 'var', 'signing-key.pem');
      for (const path of [tokenPath, keyPath]) assert.equal(statSync(path).mode & 0o777, 0o600, path);
      const token = readFileSync(tokenPath, 'utf8').trim();
      registerSecret(token);
      registerSecret(readFileSync(keyPath, 'utf8').trim());
      assert.match(readFileSync(keyPath, 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
      assert.equal((await get(`${gw.adminUrl}/info`, { 'x-admin-token': token })).status, 200);
      assert.equal((await get(`${gw.adminUrl}/info`, { 'x-admin-token': 'not-it' })).status, 401);
      const key = await mint(gw, token, 'scraper');
      const metrics = await get(`${gw.url}/metrics`, { authorization: `Bearer ${key}` });
      assert.equal(metrics.status, 200, 'the shipped config mounts /metrics');
      assert.match(metrics.text, /^# HELP gateway_/m);
      assert.equal((await get(`${gw.url}/metrics`, {})).status, 401, 'behind the key chain');

      assert.equal(await gw.stop(), 0);
      gw = await startGateway({ dir: join(root, 'config'), configPath }, { env: CLEAN_ENV });
      assert.equal(readFileSync(tokenPath, 'utf8').trim(), token, 'the same token after a restart');
      assert.equal((await get(`${gw.adminUrl}/info`, { 'x-admin-token': token })).status, 200);
      assert.equal((await get(`${gw.url}/metrics`, { authorization: `Bearer ${key}` })).status, 200, 'a key minted before the restart still verifies');
    } finally {
      await gw.stop();
    }
  });

  it('takes the admin token from GATEWAY_ADMIN_TOKEN when it is set', async () => {
    const { root, configPath } = freshClone();
    const token = 'adm_from-the-environment-0123456789';
    registerSecret(token);
    const gw = await startGateway({ dir: join(root, 'config'), configPath }, { env: { ...CLEAN_ENV, GATEWAY_ADMIN_TOKEN: token } });
    try {
      assert.equal((await get(`${gw.adminUrl}/info`, { 'x-admin-token': token })).status, 200);
      assert.equal(existsSync(join(root, 'var', 'admin-token')), false, 'no file made for a secret the environment gives');
      assert.equal(existsSync(join(root, 'var', 'signing-key.pem')), true);
    } finally {
      await gw.stop();
    }
  });
});
