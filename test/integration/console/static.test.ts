// The console's files as the admin listener serves them: the three built names with their
// types and the safe headers, the redirect from /console, 404 for any other name (no URL path
// reaches the file system), 405 for a write; GET /whoami names the caller and its scope. The
// config is locked here: in the browser, an apply and a rollback show the server's refusal.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import { registerSecret } from '../../helpers/secret-scan.js';

const ADMIN_TOKEN = 'console-static-admin-token-0123456789';

describe('the console files on the admin listener', () => {
  let mock: MockServer;
  let gw: RunningGateway;
  let origin: string;

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    const { config, providers } = mockConfig(mock.url);
    registerSecret(ADMIN_TOKEN);
    const files = writeConfig(
      { ...config, auth: { chain: [], admin_auth: ['admin-tokens'], admin_token: { env: 'GW_TEST_ADMIN_TOKEN' }, upstream_credentials: 'own' } },
      providers,
    );
    gw = await startGateway(files, { workers: 1, env: { GW_TEST_ADMIN_TOKEN: ADMIN_TOKEN } });
    origin = new URL(gw.adminUrl).origin;
  });

  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('serves the three built files with a strict CSP, X-Frame-Options DENY and no caching, without a credential', async () => {
    for (const [path, type] of [
      ['/console/', 'text/html'],
      ['/console/index.html', 'text/html'],
      ['/console/app.js', 'text/javascript'],
      ['/console/app.css', 'text/css'],
    ] as const) {
      const res = await request(`${origin}${path}`);
      const body = await res.body.text();
      assert.equal(res.statusCode, 200, path);
      assert.ok(String(res.headers['content-type']).startsWith(type), path);
      assert.ok(body.length > 0);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    const html = await (await request(`${origin}/console/`)).body.text();
    assert.doesNotMatch(html, /<script>|<style>|style=/, 'no inline script or style');
  });

  it('redirects /console, refuses other names (404) and writes (405)', async () => {
    const bare = await request(`${origin}/console`);
    await bare.body.dump();
    assert.equal(bare.statusCode, 308);
    assert.equal(bare.headers.location, '/console/');
    for (const path of ['/console/package.json', '/console/%2e%2e/%2e%2e/package.json', '/console/app.js.map', '/console/generated/admin-api.ts']) {
      const res = await request(`${origin}${path}`);
      await res.body.dump();
      assert.equal(res.statusCode, 404, path);
    }
    const head = await request(`${origin}/console/app.js`, { method: 'HEAD' });
    await head.body.dump();
    assert.equal(head.statusCode, 200);
    assert.ok(Number(head.headers['content-length']) > 0, 'HEAD gives the length of what GET sends');
    const post = await request(`${origin}/console/`, { method: 'POST', body: '{}' });
    await post.body.dump();
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });

  it("a locked config: apply and rollback in the page show the server's refusal as is", async () => {
    const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/console/#/config`);
      await page.fill('#token', ADMIN_TOKEN);
      await page.click('#sign-in');
      await page.waitForSelector('#rollback-to option[value="0"]', { state: 'attached' });
      await page.fill('#config-doc', '{"pools": {}}');
      await page.click('#apply');
      const refusal = await page.waitForSelector('[role=alert]');
      assert.match((await refusal.textContent())!, /the config is locked \(config\.locked: true\)/);
      await page.click('#rollback');
      await page.waitForSelector('[role=alert]:has-text("the config is locked")');
      assert.equal(await page.locator('[role=status]').count(), 0, 'nothing reported as done');
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('GET /whoami: the operator token is admin with the full scope; no credential is 401', async () => {
    const me = await request(`${gw.adminUrl}/whoami`, { headers: { 'x-admin-token': ADMIN_TOKEN } });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(await me.body.json(), { id: 'admin', scope: 'full' });
    const anonymous = await request(`${gw.adminUrl}/whoami`);
    await anonymous.body.dump();
    assert.equal(anonymous.statusCode, 401);
  });
});
