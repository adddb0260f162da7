// The admin console (/console/) end to end in a real browser: Debian's chromium driven by
// playwright-core against a real gateway process and the mock provider. Signing in with the
// operator token; a key minted in the page (secret shown once) works with the openai SDK and
// its request moves the key's metering, the day's usage and the pool member's ok count; a
// PATCH and a rotate (the old secret refused) work from the key's view; a breaker tripped with
// the mock's faults shows the member unusable, then usable again; a revoked key's next call is
// refused; a config change applied in the page, diffed and rolled back; an identity-provider
// principal with the read-only scope sees no mutation control and pages the key list; a hook's settings form, drawn
// from its JSON Schema (the example socket gate), PATCHes its settings; axe-core finds no serious
// violation on any view, and the page raises no CSP violation. Each view is screenshotted to a
// temp folder removed at the end (UPDATE_CONSOLE_SCREENSHOTS=1 copies them to docs/console/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parse } from 'yaml';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, type TestBrowser } from '../../helpers/browser.js';
import type { GatewayFiles, RunningGateway } from '../../helpers/gateway.js';
import { startStack, type Stack } from '../../helpers/clients/stack.js';
import { startIdp, type TestIdp } from '../../helpers/oidc-idp.js';
import { registerSecret } from '../../helpers/secret-scan.js';
import { SIGNING_KEY } from '../governance/harness.js';
import { startSocketGate, type HookProcess } from '../hooks/hook-kit.js';

const ADMIN_TOKEN = 'console-test-admin-token-0123456789';
const AXE = readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');
const VIEWS = ['overview', 'pools', 'keys', 'groups', 'usage', 'audit', 'config', 'hooks'];
const MUTATION_CONTROLS = '#mint, #revoke, #rotate, #rollback, #apply, button:has-text("Save")';

describe('the admin console in a real browser', () => {
  let idp: TestIdp;
  let stack: Stack | undefined;
  let gw: RunningGateway;
  let files: GatewayFiles;
  let browser: BrowserContext;
  let chromiumRig: TestBrowser | undefined;
  let shots: string;
  let gate: HookProcess;
  let origin: string;
  const cspViolations: string[] = [];

  before(async () => {
    idp = await startIdp({ users: { audrey: { groups: ['auditors'] } } });
    registerSecret(ADMIN_TOKEN);
    stack = await startStack({
      over: {
        config: { locked: false },
        governance: { flush_interval_secs: 1 },
        auth: {
          chain: ['keys'],
          admin_auth: ['admin-tokens', 'corp'],
          admin_token: { env: 'GW_TEST_ADMIN_TOKEN' },
          upstream_credentials: 'own',
          signing_key: { env: 'GW_TEST_SIGNING_KEY' },
        },
        'identity-providers': { corp: { module: 'oidc', settings: { issuer: idp.issuer, audience: 'gateway' }, max_admin_scope: 'read-only' } },
        role_bindings: { corp: { auditors: { admin_scope: 'read-only' } } },
      },
      extraPools: {
        // The default pool trips on one failure and cools down for about two seconds.
        default: {
          members: [{ model: 'lane-openai', weight: 1 }],
          // A cooldown well over the pools view's 2 s refresh, so the open cell is on the page for a few reads.
          breaker: { consecutive_n: 1, base_cooldown_secs: 5, max_cooldown_secs: 5 },
        },
      },
      workers: 2,
      env: { GW_TEST_SIGNING_KEY: SIGNING_KEY, GW_TEST_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    gw = stack.gateway;
    files = stack.files;
    origin = new URL(gw.adminUrl).origin;
    shots = mkdtempSync(join(tmpdir(), 'gw-console-shots-'));
    gate = await startSocketGate(shots, 'console-gate');
    chromiumRig = await launchChromium({ width: 1280, height: 800 });
    browser = chromiumRig.context;
  });

  after(async () => {
    await chromiumRig?.close();
    await stack?.close();
    await idp?.close();
    await gate?.stop();
    if (files !== undefined) rmSync(files.dir, { recursive: true, force: true });
    if (shots !== undefined) rmSync(shots, { recursive: true, force: true });
  });

  async function signIn(token: string): Promise<Page> {
    const page = await browser.newPage();
    await page.route(
      (url) => url.origin !== origin,
      (route) => route.abort(),
    );
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    const response = await page.goto(`${origin}/console/`, { waitUntil: 'domcontentloaded' });
    const headers = response?.headers() ?? {};
    assert.match(headers['content-security-policy'] ?? '', /default-src 'none'/);
    assert.match(headers['content-security-policy'] ?? '', /script-src 'self'(;|$)/);
    assert.equal(headers['x-frame-options'], 'DENY');
    await page.fill('#token', token);
    await page.click('#sign-in');
    await page.waitForSelector('#principal');
    return page;
  }

  async function view(page: Page, name: string): Promise<void> {
    await page.goto(`${origin}/console/#/${name}`);
    await page.waitForSelector(`h1`);
  }

  /** axe-core over the current view: no serious or critical violation. */
  async function accessible(page: Page, name: string): Promise<void> {
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
      const result = await axe.run();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
    });
    assert.deepEqual(violations, [], `serious accessibility violations on ${name}`);
  }

  const MEMBER = 'table[data-pool="default"] tr[data-model="lane-openai"]';

  async function memberCell(page: Page, cls: string): Promise<string> {
    return ((await page.textContent(`${MEMBER} td.${cls}`)) ?? '').trim();
  }

  /** Waits until the text of `selector` (trimmed) is `expected`, as the page refreshes itself. */
  async function untilText(page: Page, selector: string, expected: string, timeout = 10_000): Promise<void> {
    // A function, not a string: the console's CSP has no 'unsafe-eval'. Its body runs in the page.
    const inPage = ([sel, want]: [string, string]) =>
      (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document
        .querySelector(sel)
        ?.textContent?.trim() === want;
    await page.waitForFunction(inPage, [selector, expected] as [string, string], { timeout });
  }

  /** Waits until the number in `selector` is at least `least`, as the page refreshes itself. */
  async function untilAtLeast(page: Page, selector: string, least: number, timeout = 10_000): Promise<void> {
    const inPage = ([sel, want]: [string, number]) =>
      Number(
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document
          .querySelector(sel)
          ?.textContent?.trim()
          .replace(/,/g, '') ?? Number.NaN,
      ) >= want;
    await page.waitForFunction(inPage, [selector, least] as [string, number], { timeout });
  }

  /** The selector, or the first error notice's text as the failure. */
  async function expectSelector(page: Page, selector: string): Promise<void> {
    await page.waitForSelector(`${selector}, [role=alert]`);
    const alert = page.locator('[role=alert]');
    if ((await page.locator(selector).count()) === 0) assert.fail(`the page refused: ${await alert.first().textContent()}`);
  }

  it('signs in, mints a key that works, sees its usage and the member ok count move, trips and recovers a breaker, revokes the key', async () => {
    const page = await signIn(ADMIN_TOKEN);
    assert.match((await page.textContent('#principal')) ?? '', /admin \(full\)/);
    assert.equal(await page.evaluate('localStorage.length + sessionStorage.length + document.cookie.length'), 0, 'nothing in the page storage');

    await view(page, 'pools');
    await page.waitForSelector('table[data-pool="default"] tr[data-model="lane-openai"]');
    const okBefore = Number(await memberCell(page, 'ok'));

    await view(page, 'keys');
    await page.fill('#mint input[name=name]', 'console-key');
    await page.fill('#mint input[name=max_budget_cents]', '100');
    await page.click('#mint button[type=submit]');
    await expectSelector(page, '#secret');
    const secret = (await page.textContent('#secret'))!.trim();
    registerSecret(secret);
    assert.ok(secret.length > 20);
    const keyId = (await page.getAttribute('#keys tbody tr[data-key]', 'data-key'))!;
    await page.click('#copy-secret').catch(() => {}); // the clipboard may be denied headless; the button is there
    // Leaving the view drops the secret: it is never shown again.
    await view(page, 'overview');
    await view(page, 'keys');
    assert.equal(await page.locator('#secret').count(), 0);

    const openai = new OpenAI({ apiKey: secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(answer.choices.length > 0);

    await page.goto(`${origin}/console/#/keys/${encodeURIComponent(keyId)}`);
    await untilText(page, '#key-requests', '1', 20_000);

    await view(page, 'pools');
    // At least one more (a health probe may land in the same count between two refreshes).
    await untilAtLeast(page, `${MEMBER} td.ok`, okBefore + 1);

    // The mock's fault: one 500 trips the cell (consecutive_n 1); the page shows it unusable, then usable after the cooldown.
    await assert.rejects(openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'x [mock status=500]' }] }));
    await view(page, 'overview');
    await view(page, 'pools'); // a fresh read, not the next refresh
    await untilText(page, `${MEMBER} td.usable`, 'no');
    assert.match(await memberCell(page, 'breaker'), /open/);
    await page.screenshot({ path: join(shots, 'pools-tripped.png'), fullPage: true });
    await untilText(page, `${MEMBER} td.usable`, 'yes', 20_000);
    // Served again once recovered (the probe, or the next request, closes the cell).
    assert.ok((await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'again' }] })).choices.length > 0);

    // The day's usage shows the key (flushed every second).
    await view(page, 'usage');
    await page.waitForSelector('table:has(caption:text("By key")) th:has-text("console-key")', { timeout: 20_000 });

    // PATCH (an RPM cap), then rotate: the new secret shown once, the old one refused.
    await page.goto(`${origin}/console/#/keys/${encodeURIComponent(keyId)}`);
    await page.waitForSelector('form[aria-label="Change the key"]');
    await page.fill('form[aria-label="Change the key"] input[name=rpm_limit]', '600');
    await page.click('form[aria-label="Change the key"] button[type=submit]');
    await expectSelector(page, '[role=status]:has-text("Saved.")');
    await page.waitForSelector('dd:has-text("600 requests/min")');
    await page.waitForSelector('#budget-headroom:has-text("of $1.00 left")');
    await page.click('#rotate');
    await expectSelector(page, '#secret');
    const rotated = (await page.textContent('#secret'))!.trim();
    registerSecret(rotated);
    assert.notEqual(rotated, secret);
    await assert.rejects(
      openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
      (err: { status?: number }) => err.status === 401,
    );
    const fresh = new OpenAI({ apiKey: rotated, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    assert.ok((await fresh.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] })).choices.length > 0);

    await page.click('#revoke');
    await expectSelector(page, '[role=status]:has-text("Revoked.")');
    await assert.rejects(
      fresh.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
      (err: { status?: number }) => err.status === 401,
    );
    await page.close();
  });

  it('applies a config change, diffs it and rolls it back', async () => {
    const page = await signIn(ADMIN_TOKEN);
    await view(page, 'config');
    // The element is there before its number ('…' until the versions are read).
    await page.waitForFunction(() =>
      /^\d+$/.test(
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document
          .querySelector('#live-version')
          ?.textContent?.trim() ?? '',
      ),
    );
    const live = Number((await page.textContent('#live-version'))!.trim());
    const doc = parse(readFileSync(files.configPath, 'utf8')) as Record<string, unknown>;
    const changed = { ...doc, hooks: { console_tap: { kind: 'tap', webhook: 'http://127.0.0.1:9/tap', at: 'completion' } } };

    await page.fill('#config-doc', '{"pools": 5}');
    await page.click('#validate');
    await page.waitForSelector('#validate-errors li');

    await page.fill('#config-doc', JSON.stringify(changed, null, 2));
    await page.click('#validate');
    await expectSelector(page, '[role=status]:has-text("The document is valid.")');
    await page.click('#apply');
    await expectSelector(page, `[role=status]:has-text("Applied: config version ${live + 1}")`);
    await untilText(page, '#live-version', String(live + 1));

    await page.selectOption('#diff-from', String(live));
    await page.selectOption('#diff-to', String(live + 1));
    await page.click('#show-diff');
    await page.waitForSelector('#diff');
    assert.match((await page.textContent('#diff'))!, /Hooks added\s*console_tap/);

    await view(page, 'hooks');
    await page.waitForSelector('#hook-console_tap');

    await view(page, 'config');
    await page.waitForSelector(`#rollback-to option[value="${live}"]`, { state: 'attached' });
    await page.selectOption('#rollback-to', String(live));
    await page.click('#rollback');
    await expectSelector(page, `[role=status]:has-text("Rolled back to version ${live}")`);
    await untilText(page, '#live-version', String(live + 2));
    await view(page, 'hooks');
    await page.waitForSelector('text=No hooks configured.');
    await page.close();
  });

  it("hooks: health, drift and the settings form drawn from the hook's JSON Schema, sent with PATCH", async () => {
    const registered = await fetch(`${gw.adminUrl}/hooks`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'router', kind: 'gate', socket: gate.target, settings: { order: ['lane-openai'], message: 'hello' } }),
    });
    assert.equal(registered.status, 201, await registered.text());
    const page = await signIn(ADMIN_TOKEN);
    await view(page, 'hooks');
    const form = 'form[aria-label="Settings of router"]';
    await page.waitForSelector(`${form} input[name=message]`);
    assert.equal(await page.inputValue(`${form} input[name=message]`), 'hello');
    assert.equal(await page.inputValue(`${form} input[name=order]`), '["lane-openai"]');
    assert.equal(await page.locator(`${form} select[name=mode] option`).count(), 5, 'the enum, and unset');
    assert.equal(await page.getAttribute(`${form} input[name=status]`, 'type'), 'number');
    await page.fill(`${form} input[name=message]`, 'from the console');
    await page.fill(`${form} input[name=status]`, '418');
    await page.click(`${form} button[type=submit]`);
    await expectSelector(page, '[role=status]:has-text("Settings saved.")');
    const hook = (await (await fetch(`${gw.adminUrl}/hooks/router`, { headers: { 'x-admin-token': ADMIN_TOKEN } })).json()) as { settings: unknown };
    assert.deepEqual(hook.settings, { order: ['lane-openai'], message: 'from the console', status: 418 });
    await page.waitForSelector('#hook-router ~ dl dd:has-text("yes")');
    await page.close();
  });

  it("groups: each limit's use in the current window drawn as a bar", async () => {
    const admin = (method: string, path: string, body: unknown) =>
      fetch(`${gw.adminUrl}${path}`, { method, headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const made = await admin('POST', '/groups', { name: 'console-team', limits: [{ metric: 'requests', window: 'day', max: 50 }] });
    assert.equal(made.status, 201, await made.text());
    const minted = await admin('POST', '/keys', { name: 'console-team-key', group: 'console-team', allowed_pools: ['default'] });
    assert.equal(minted.status, 201);
    const { secret } = (await minted.json()) as { secret: string };
    registerSecret(secret);
    const openai = new OpenAI({ apiKey: secret, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'hi' }] });
    const page = await signIn(ADMIN_TOKEN);
    await view(page, 'groups');
    const bar = '#group-console-team ~ div meter[data-limit="requests-day"]';
    await page.waitForSelector(bar);
    assert.equal(await page.getAttribute(bar, 'value'), '1', 'one request used of 50 today');
    assert.equal(await page.getAttribute(bar, 'max'), '50');
    await page.close();
  });

  it('every view: a screenshot, no serious accessibility violation, usable on a narrow window, no CSP violation', async () => {
    const page = await signIn(ADMIN_TOKEN);
    for (const name of VIEWS) {
      await view(page, name);
      await page.waitForLoadState('networkidle');
      await accessible(page, name);
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    }
    // Keyboard: Enter on a view link opens that view with the focus on it.
    await view(page, 'overview');
    await page.focus('nav a[href="#/pools"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#pools-title');
    // The focus moves once the view has rendered (an effect after the render): wait for it.
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id === 'content',
      undefined,
      { timeout: 5_000 },
    );
    await page.setViewportSize({ width: 420, height: 800 });
    await view(page, 'pools');
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, 'the page itself does not scroll sideways on a narrow window (tables scroll in their box)');
    assert.deepEqual(cspViolations, []);
    if (process.env.UPDATE_CONSOLE_SCREENSHOTS === '1') {
      const keep = join(process.cwd(), 'docs/console');
      mkdirSync(keep, { recursive: true });
      for (const name of [...VIEWS, 'pools-tripped']) copyFileSync(join(shots, `${name}.png`), join(keep, `${name}.png`));
    }
    await page.close();
  });

  it('a read-only identity sees every view and no mutation control', async () => {
    const page = await signIn(await idp.token('audrey'));
    assert.match((await page.textContent('#principal')) ?? '', /idp:corp:.*\(read-only\)/);
    for (const name of VIEWS) {
      await view(page, name);
      await page.waitForLoadState('networkidle');
      assert.equal(await page.locator(MUTATION_CONTROLS).count(), 0, `no mutation control on ${name}`);
    }
    // Keys to look at (the first test's is revoked and gone from the list): more than a page.
    for (let i = 0; i < 21; i++) {
      const minted = await fetch(`${gw.adminUrl}/keys`, {
        method: 'POST',
        headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `for-the-reader-${i}`, allowed_pools: ['*'] }),
      });
      assert.equal(minted.status, 201);
      registerSecret(((await minted.json()) as { secret: string }).secret);
    }
    await view(page, 'keys');
    await page.waitForSelector('#keys tbody tr[data-key]');
    assert.equal(await page.locator('#keys tbody tr').count(), 20, 'a page of 20');
    const firstPage = await page.locator('#keys tbody tr').first().getAttribute('data-key');
    await page.click('button:has-text("Next page")');
    await page.waitForFunction((id) => {
      const row = (
        globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }
      ).document.querySelector('#keys tbody tr');
      return row !== null && row.getAttribute('data-key') !== id;
    }, firstPage);
    assert.ok((await page.locator('#keys tbody tr').count()) >= 1);
    await page.click('button:has-text("Previous page")');
    await page.waitForSelector(`#keys tbody tr[data-key="${firstPage}"]`);
    await page.waitForSelector('#keys tbody tr[data-key]');
    const first = (await page.getAttribute('#keys tbody tr[data-key]', 'data-key'))!;
    await page.goto(`${origin}/console/#/keys/${encodeURIComponent(first)}`);
    await page.waitForSelector('#metering');
    assert.equal(await page.locator(MUTATION_CONTROLS).count(), 0, 'no mutation control on a key');
    await page.close();
  });
});
