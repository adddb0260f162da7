// The hosted sign-in page end to end in a real browser: Debian's chromium driven by
// playwright-core. With two providers the page is a chooser; signing in at the test IdP
// (authorization code + PKCE + state) shows the key once with the base URL; the key works with
// the openai SDK; Refresh gives a new key and the old one dies. The page carries a strict CSP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import OpenAI from 'openai';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, type TestBrowser } from '../../helpers/browser.js';
import { request } from 'undici';
import type { RunningGateway } from '../../helpers/gateway.js';
import { startStack, type Stack } from '../../helpers/clients/stack.js';
import { startIdp, type TestIdp } from '../../helpers/oidc-idp.js';
import { SIGNING_KEY } from '../governance/harness.js';

const CLIENT_SECRET = 'web-client-secret-for-tests';

describe('the hosted sign-in page in a real browser', () => {
  let idp: TestIdp;
  let stack: Stack | undefined;
  let gw: RunningGateway;
  let browser: BrowserContext;
  let chromiumRig: TestBrowser | undefined;

  before(async () => {
    idp = await startIdp({ users: { alice: { groups: ['eng'] } } });
    const settings = { issuer: idp.issuer, audience: 'gateway' };
    const browserLogin = (clientId: string) => ({ client_id: clientId, client_secret: { env: 'GW_TEST_CLIENT_SECRET' }, scope: 'openid groups' });
    stack = await startStack({
      over: {
        auth: { chain: ['keys'], admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } },
        'identity-providers': {
          corp: { module: 'oidc', settings, browser_login: browserLogin('gw-web') },
          other: { module: 'oidc', settings, browser_login: browserLogin('gw-web-2') },
        },
        role_bindings: { corp: { eng: { group: 'team-eng' } }, other: { eng: { group: 'team-eng' } } },
      },
      workers: 2,
      env: { GW_TEST_SIGNING_KEY: SIGNING_KEY, GW_TEST_CLIENT_SECRET: CLIENT_SECRET },
    });
    gw = stack.gateway;
    idp.addCodeClient('gw-web', CLIENT_SECRET, `${gw.url}/auth/token`);
    idp.addCodeClient('gw-web-2', CLIENT_SECRET, `${gw.url}/auth/token`);
    const made = await request(`${gw.adminUrl}/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'team-eng' }),
    });
    assert.equal(made.statusCode, 201, await made.body.text());
    chromiumRig = await launchChromium();
    browser = chromiumRig.context;
  });

  after(async () => {
    await chromiumRig?.close();
    await stack?.close();
    await idp?.close();
    if (stack !== undefined) rmSync(stack.files.dir, { recursive: true, force: true });
  });

  async function signIn(page: Page): Promise<{ key: string; baseUrl: string }> {
    // The dev login page imports a web font: nothing leaves loopback.
    await page.route(
      (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
      (route) => route.abort(),
    );
    const response = await page.goto(`${gw.url}/auth/token`, { waitUntil: 'domcontentloaded' });
    const csp = response?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self'/);
    const choices = await page.locator('#providers a').allTextContents();
    assert.deepEqual(choices, ['Sign in with corp', 'Sign in with other'], 'two providers: the chooser');
    const authorize = page.waitForRequest((r) => r.url().startsWith(`${idp.issuer}/auth?`));
    await page.click('text=Sign in with corp');
    const asked = new URL((await authorize).url());
    assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
    assert.ok((asked.searchParams.get('code_challenge') ?? '').length >= 43);
    assert.ok((asked.searchParams.get('state') ?? '').length >= 32);
    assert.equal(asked.searchParams.get('redirect_uri'), `${gw.url}/auth/token`);
    await page.waitForSelector('input[name=login]');
    assert.ok(page.url().startsWith(idp.issuer), 'the browser is at the IdP');
    await page.fill('input[name=login]', 'alice');
    await page.fill('input[name=password]', 'any');
    await page.click('button[type=submit]');
    await page.waitForLoadState('domcontentloaded');
    if ((await page.locator('#key').count()) === 0) {
      await page.click('button[type=submit]'); // the consent prompt
    }
    await page.waitForSelector('#key');
    assert.ok(!page.url().includes('eyJ'), 'no secret in the URL');
    return { key: (await page.textContent('#key'))!.trim(), baseUrl: (await page.textContent('#base-url'))!.trim() };
  }

  it('signs in, shows the key with the base URL, the key works with the openai SDK, Refresh rotates it', async () => {
    const page = await browser.newPage();
    const { key, baseUrl } = await signIn(page);
    assert.equal(baseUrl, `${gw.url}/v1`);
    const openai = new OpenAI({ apiKey: key, baseURL: baseUrl, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(answer.choices.length > 0);

    await page.click('#refresh');
    await page.waitForSelector('#key');
    const fresh = (await page.textContent('#key'))!.trim();
    assert.notEqual(fresh, key);
    await assert.rejects(
      openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
      (err: { status?: number }) => err.status === 401,
    );
    const again = new OpenAI({ apiKey: fresh, baseURL: baseUrl, maxRetries: 0 });
    assert.ok((await again.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] })).choices.length > 0);
    assert.ok(!gw.logs().includes(fresh) && !gw.logs().includes(key), 'the key is never logged');
    await page.close();
  });
});
