// Control routes, the OAuth2 token endpoint and the CLI.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseMockProviderArgs } from '../../src/mock/cli.js';
import { mockText } from '../../src/mock/content.js';
import { post } from './wire.js';
import { suiteMock } from '../helpers/clients/stack.js';

function form(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() };
}

function jwt(payload: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;
}

describe('mock provider control routes and token endpoint', () => {
  const mock = suiteMock({ token_expires_in: 120 });

  it('/mock/last-request returns the exact raw body, headers, path and query', async () => {
    const raw = '{ "contents" : [ {"parts":[{"text":"h\u00e9llo \u{1F600}"}]} ] ,\n "extra": 1.50 }';
    const res = await fetch(`${mock.url}/v1beta/models/gm:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'gk' },
      body: raw,
    });
    await res.arrayBuffer();
    const last: any = await (await fetch(`${mock.url}/mock/last-request`)).json();
    assert.equal(last.body, raw);
    assert.deepEqual(Buffer.from(last.body_base64, 'base64'), Buffer.from(raw, 'utf8'));
    assert.equal(last.method, 'POST');
    assert.equal(last.path, '/v1beta/models/gm:streamGenerateContent');
    assert.equal(last.query, 'alt=sse');
    assert.equal(last.headers['x-goog-api-key'], 'gk');
    assert.equal(last.protocol, 'gemini');
    assert.equal(last.model, 'gm');
  });

  it('/mock/stats and /mock/reset', async () => {
    await post(`${mock.url}/v1/responses`, { model: 'r', input: 'hi' });
    const stats: any = await (await fetch(`${mock.url}/mock/stats`)).json();
    assert.ok(stats.requests >= 1);
    assert.ok(stats.requests_by_protocol.responses >= 1);
    assert.equal(stats.last_request.protocol, 'responses');
    assert.equal(stats.last_request.model, 'r');
    assert.deepEqual(stats, mock.stats());
    const reset = await fetch(`${mock.url}/mock/reset`, { method: 'POST' });
    assert.equal(reset.status, 200);
    const after = mock.stats();
    assert.equal(after.requests, 0);
    assert.equal(after.last_request, null);
    assert.equal((await fetch(`${mock.url}/mock/last-request`)).status, 404);
  });

  it('client_credentials grant with form fields or HTTP Basic', async () => {
    const before = mock.stats().tokens_minted;
    const a = await fetch(`${mock.url}/oauth2/token`, form({ grant_type: 'client_credentials', client_id: 'app', client_secret: 's3', scope: 'x' }));
    assert.equal(a.status, 200);
    const tokenA: any = await a.json();
    assert.equal(tokenA.token_type, 'Bearer');
    assert.equal(tokenA.expires_in, 120);
    assert.equal(typeof tokenA.access_token, 'string');
    const basic = 'Basic ' + Buffer.from('app:s3').toString('base64');
    const b = await fetch(`${mock.url}/oauth2/token`, form({ grant_type: 'client_credentials' }, { authorization: basic }));
    const tokenB: any = await b.json();
    assert.notEqual(tokenB.access_token, tokenA.access_token);
    assert.equal(mock.stats().tokens_minted, before + 2);
    const missing = await fetch(`${mock.url}/oauth2/token`, form({ grant_type: 'client_credentials', client_id: 'app' }));
    assert.equal(missing.status, 401);
    assert.equal(((await missing.json()) as any).error, 'invalid_client');
  });

  it('jwt-bearer grant accepts any well-formed JWT', async () => {
    const grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
    const ok = await fetch(
      `${mock.url}/oauth2/token`,
      form({ grant_type: grant, assertion: jwt({ iss: 'sa@x', aud: 'https://oauth2.googleapis.com/token' }) }),
    );
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as any).expires_in, 120);
    const bad = await fetch(`${mock.url}/oauth2/token`, form({ grant_type: grant, assertion: 'not.a.jwt' }));
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).error, 'invalid_grant');
    const unsupported = await fetch(`${mock.url}/oauth2/token`, form({ grant_type: 'password' }));
    assert.equal(unsupported.status, 400);
    assert.equal(((await unsupported.json()) as any).error, 'unsupported_grant_type');
  });
});

describe('mock provider CLI', () => {
  it('parses flags in both forms and rejects unknown ones', () => {
    assert.deepEqual(parseMockProviderArgs(['--port', '9000', '--latency-ms=20', '--require-auth', '--fault', 'hang']), {
      port: 9000,
      latency_ms: '20',
      require_auth: 'true',
      fault: 'hang',
    });
    assert.throws(() => parseMockProviderArgs(['--nope', '1']), /unknown flag --nope/);
    assert.throws(() => parseMockProviderArgs(['--chunks']), /--chunks needs a value/);
    assert.throws(() => parseMockProviderArgs(['--port', 'x']), /--port/);
  });

  it('prints the listening line, serves, and stops cleanly on SIGTERM', async () => {
    const main = fileURLToPath(new URL('../../src/mock/main.js', import.meta.url));
    const child = spawn(process.execPath, [main, '--port', '0', '--chunks', '3'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! });
      const [line] = (await once(lines, 'line')) as [string];
      const hello = JSON.parse(line);
      assert.equal(hello.mock_provider, 'listening');
      assert.match(hello.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await post(`${hello.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(JSON.parse(res.text).choices[0].message.content, mockText(3));
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
