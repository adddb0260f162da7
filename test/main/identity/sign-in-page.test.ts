// The sign-in pages: every value is escaped, the CSP is strict (nonce-only style/script,
// form-action self), and the result page is never cached.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chooserPage, errorPage, resultPage } from '../../../src/main/identity/sign-in-page.js';

describe('sign-in pages', () => {
  it('escapes what it shows and carries a strict, per-response CSP', () => {
    const page = resultPage('k<script>', 'http://gw/v1', 1_900_000_000, 'g"x', 'ticket&1');
    assert.ok(!page.body.includes('<script>alert') && page.body.includes('k&lt;script&gt;'));
    assert.ok(page.body.includes('g&quot;x') && page.body.includes('ticket&amp;1'));
    const csp = page.headers['content-security-policy']!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /form-action 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    assert.ok(page.body.includes(`<script nonce="${nonce}">`));
    assert.notEqual(resultPage('k', 'u', 0, null, 't').headers['content-security-policy'], csp, 'a fresh nonce per response');
  });

  it('the chooser lists providers by escaped name; error pages run no script', () => {
    const chooser = chooserPage(['corp', 'a&b']);
    assert.ok(chooser.body.includes('href="/auth/token?provider=corp"') && chooser.body.includes('provider=a%26b'));
    assert.match(errorPage(401, '<b>').headers['content-security-policy']!, /script-src 'none'/);
    assert.ok(errorPage(401, '<b>').body.includes('&lt;b&gt;'));
  });
});
