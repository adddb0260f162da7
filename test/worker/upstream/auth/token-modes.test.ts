// The token-minting modes against a real local token endpoint (node:http on 127.0.0.1:0). The
// refresh, retry and expiry timers are ManualTimers: a test reads the delays a mode scheduled
// and fires them itself, so nothing here waits on or measures the wall clock.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { jwtVerify, decodeProtectedHeader } from 'jose';
import type { CompiledAuth, CompiledProvider } from '../../../../src/shared/config/compiled.js';
import { createUpstreamAuth, type OutgoingRequest, type UpstreamAuth } from '../../../../src/worker/upstream/auth/upstream-auth.js';
import { backoffDelayMs, refreshDelayMs, DEFAULT_TOKEN_TIMING } from '../../../../src/worker/upstream/auth/minted-token-auth.js';
import { captureLogger, ManualTimers, TokenServer, waitFor } from './token-server.js';

const CLIENT_SECRET = 'client-secret-DO-NOT-LOG-9f8e7d';
const servers: TokenServer[] = [];
const auths: UpstreamAuth[] = [];

after(async () => {
  for (const a of auths) a.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function tokenServer(answer: ConstructorParameters<typeof TokenServer>[0]): Promise<TokenServer> {
  const s = await new TokenServer(answer).listen();
  servers.push(s);
  return s;
}

function provider(auth: CompiledAuth): CompiledProvider {
  return { name: 'idp-test', protocol: 'openai', origin: 'http://127.0.0.1:9', basePath: '', auth, headers: {}, missingKey: false, allowMetadataHosts: [] };
}

function track<T extends UpstreamAuth>(a: T): T {
  auths.push(a);
  return a;
}

const request = (): OutgoingRequest => ({ method: 'POST', origin: 'http://127.0.0.1:9', path: '/x', headers: {}, body: '' });

test('refresh timing: 80% or 60 s early, whichever is sooner, never before half the lifetime', () => {
  assert.equal(refreshDelayMs(3600), 2_880_000);
  assert.equal(refreshDelayMs(120), 60_000);
  assert.equal(refreshDelayMs(100), 50_000);
  assert.equal(refreshDelayMs(2), 1_000);
  assert.equal(refreshDelayMs(0.1), 500);
  assert.deepEqual(
    [1, 2, 3, 20].map((n) => backoffDelayMs(n, DEFAULT_TOKEN_TIMING)),
    [200, 400, 800, 30_000],
  );
});

test('oauth-client-credentials: false before the first token, true after, refreshed before expiry', async () => {
  // expires_in as a string, as Entra v1 sends it; the first answer is slow.
  const server = await tokenServer((_call, i) => ({
    status: 200,
    body: { access_token: `at-${i + 1}`, token_type: 'Bearer', expires_in: '2' },
    delayMs: i === 0 ? 150 : 0,
  }));
  const { log, lines } = captureLogger();
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(
      provider({
        mode: 'oauth-client-credentials',
        tokenUrl: server.url,
        clientId: 'my-client',
        clientSecret: CLIENT_SECRET,
        scope: 'https://cognitiveservices.azure.com/.default',
      }),
      log,
      { tokenTiming: { timers } },
    ),
  );

  // Minting started at creation, in the background: no request is made to wait for it.
  const early = request();
  const result = auth.apply(early);
  assert.equal(result, false);
  assert.equal(early.headers.authorization, undefined);

  await waitFor(() => server.calls.length >= 1, 10_000);
  const form = server.calls[0]!.form;
  assert.equal(server.calls[0]!.contentType, 'application/x-www-form-urlencoded');
  assert.deepEqual(Object.fromEntries(form), {
    grant_type: 'client_credentials',
    client_id: 'my-client',
    client_secret: CLIENT_SECRET,
    scope: 'https://cognitiveservices.azure.com/.default',
  });

  await waitFor(() => auth.apply(request()) === true, 10_000);
  const req = request();
  assert.equal(auth.apply(req), true);
  assert.equal(req.headers.authorization, 'Bearer at-1');

  // expires_in 2 s: the refresh is due at 1 s, before the token expires at 2 s.
  assert.deepEqual(timers.delays(), [1000, 2000]);
  timers.fire(1000);
  await waitFor(() => server.calls.length >= 2, 10_000);
  await waitFor(() => {
    const r = request();
    auth.apply(r);
    return r.headers.authorization === 'Bearer at-2';
  }, 10_000);
  assert.deepEqual(timers.delays(), [1000, 2000], 'the new token: its own refresh and expiry, the old expiry gone');

  auth.close();
  const all = lines.join('');
  assert.match(all, /upstream token minted/);
  assert.ok(all.includes(new URL(server.url).origin));
  assert.ok(!all.includes(CLIENT_SECRET), 'client secret logged');
  assert.ok(!/at-\d/.test(all), 'access token logged');
});

test('token endpoint failure: capped exponential backoff, no token meanwhile, recovery', async () => {
  const server = await tokenServer((_call, i) =>
    i < 4
      ? { status: 500, body: { error: 'server_error', error_description: `bad ${CLIENT_SECRET}` } }
      : { status: 200, body: { access_token: 'at-ok', expires_in: 3600 } },
  );
  const { log, lines } = captureLogger();
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: server.url, clientId: 'c', clientSecret: CLIENT_SECRET }), log, {
      tokenTiming: { backoffBaseMs: 60, backoffMaxMs: 150, timers },
    }),
  );
  // Each failed mint schedules one retry; no token is sent meanwhile.
  const retries: number[] = [];
  for (let failed = 1; failed <= 4; failed++) {
    await waitFor(() => server.calls.length === failed && timers.delays().length === 1, 10_000);
    assert.equal(auth.apply(request()), false);
    retries.push(timers.fire());
  }
  assert.deepEqual(retries, [60, 120, 150, 150], 'doubling from 60 ms, capped at 150');
  await waitFor(() => auth.apply(request()) === true, 10_000);
  assert.equal(server.calls.length, 5);
  assert.equal(server.calls[1]!.form.has('scope'), false);

  auth.close();
  const failures = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'upstream token mint failed');
  assert.equal(failures.length, 4);
  assert.equal(failures[0]!.status, 500);
  assert.equal(failures[0]!.reason, 'rejected');
  assert.deepEqual(
    failures.map((f) => f.retryInMs),
    [60, 120, 150, 150],
  );
  assert.ok(!lines.join('').includes(CLIENT_SECRET), 'client secret logged');
});

test('a token whose refreshes all fail stops being sent once it expires', async () => {
  const server = await tokenServer((_call, i) => (i === 0 ? { status: 200, body: { access_token: 'soon-gone', expires_in: 1 } } : { status: 503, body: {} }));
  const { log, lines } = captureLogger();
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: server.url, clientId: 'c', clientSecret: 's' }), log, {
      tokenTiming: { backoffBaseMs: 100, backoffMaxMs: 200, timers },
    }),
  );
  await waitFor(() => auth.apply(request()) === true, 10_000);
  // expires_in 1 s: the refresh is due at 500 ms, the expiry at the token's full lifetime.
  assert.deepEqual(timers.delays(), [500, 1000]);
  timers.fire(500);
  await waitFor(() => server.calls.length === 2 && timers.delays().length === 2, 10_000);
  assert.deepEqual(timers.delays(), [100, 1000], 'the failed refresh is retried; the token stays until it expires');
  assert.equal(auth.apply(request()), true);
  timers.fire(1000);
  assert.equal(auth.apply(request()), false);
  assert.ok(lines.some((l) => l.includes('expired before a refresh succeeded')));
  auth.close();
});

test('an unreachable token endpoint is retried and logged by error code', async () => {
  const closed = await tokenServer(() => ({ status: 200, body: {} }));
  const url = closed.url;
  await closed.close();
  servers.splice(servers.indexOf(closed), 1);
  const { log, lines } = captureLogger();
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: url, clientId: 'c', clientSecret: CLIENT_SECRET }), log, {
      tokenTiming: { backoffBaseMs: 30, backoffMaxMs: 60, timers },
    }),
  );
  const failures = (): number => lines.filter((l) => l.includes('mint failed')).length;
  await waitFor(() => failures() === 1, 10_000);
  assert.equal(timers.fire(), 30);
  await waitFor(() => failures() === 2, 10_000);
  auth.close();
  const first = JSON.parse(lines.find((l) => l.includes('mint failed'))!) as Record<string, unknown>;
  assert.equal(first.reason, 'ECONNREFUSED');
  assert.equal(auth.apply(request()), false);
});

test('a token answer without access_token is a failure', async () => {
  const server = await tokenServer(() => ({ status: 200, body: { token_type: 'Bearer' } }));
  const { log, lines } = captureLogger();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: server.url, clientId: 'c', clientSecret: 's' }), log, {
      tokenTiming: { backoffBaseMs: 1000 },
    }),
  );
  await waitFor(() => lines.some((l) => l.includes('no_access_token')), 10_000);
  assert.equal(auth.apply(request()), false);
  auth.close();
});

test('jwt-bearer: a signed RS256 assertion is exchanged for a token', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const verified: Array<Record<string, unknown>> = [];
  const errors: unknown[] = [];
  let pending = Promise.resolve();
  const server = await tokenServer((call) => {
    // Verify asynchronously; the answer does not depend on it (the test checks `verified`).
    pending = pending.then(async () => {
      try {
        assert.equal(call.form.get('grant_type'), 'urn:ietf:params:oauth:grant-type:jwt-bearer');
        const assertion = call.form.get('assertion')!;
        assert.deepEqual(decodeProtectedHeader(assertion), { alg: 'RS256', typ: 'JWT' });
        const { payload } = await jwtVerify(assertion, createPublicKey(publicKey), {
          algorithms: ['RS256'],
          issuer: 'svc@proj.iam.gserviceaccount.com',
          audience: server.url,
        });
        verified.push(payload as Record<string, unknown>);
      } catch (err) {
        errors.push(err);
      }
    });
    return { status: 200, body: { access_token: 'ya29.vertex-token', expires_in: 3599, token_type: 'Bearer' } };
  });
  const { log, lines } = captureLogger();
  const auth = track(
    createUpstreamAuth(
      provider({
        mode: 'jwt-bearer',
        tokenUrl: server.url,
        clientEmail: 'svc@proj.iam.gserviceaccount.com',
        privateKeyPem: privateKey,
        scope: 'https://www.googleapis.com/auth/cloud-platform',
      }),
      log,
    ),
  );
  assert.equal(auth.apply(request()), false);
  await waitFor(() => auth.apply(request()) === true, 10_000);
  await pending;
  assert.deepEqual(errors, []);
  assert.equal(verified.length, 1);
  const claims = verified[0];
  assert.ok(claims);
  assert.equal(claims.scope, 'https://www.googleapis.com/auth/cloud-platform');
  assert.equal((claims.exp as number) - (claims.iat as number), 3600);
  assert.ok(Math.abs((claims.iat as number) - Date.now() / 1000) < 60);
  const req = request();
  auth.apply(req);
  assert.equal(req.headers.authorization, 'Bearer ya29.vertex-token');
  auth.close();

  const all = lines.join('');
  assert.ok(!all.includes('ya29'), 'access token logged');
  assert.ok(!all.includes('PRIVATE KEY') && !all.includes(privateKey.split('\n')[1]!), 'private key logged');
  assert.ok(!all.includes(call0Assertion(server)), 'assertion logged');
});

function call0Assertion(server: TokenServer): string {
  return server.calls[0]!.form.get('assertion')!;
}

test('jwt-bearer: audience overrides the token URL as aud', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const server = await tokenServer(() => ({ status: 200, body: { access_token: 't', expires_in: 3600 } }));
  const auth = track(
    createUpstreamAuth(
      provider({
        mode: 'jwt-bearer',
        tokenUrl: server.url,
        clientEmail: 'a@b',
        privateKeyPem: privateKey,
        scope: 's',
        audience: 'https://oauth2.googleapis.com/token',
      }),
      captureLogger().log,
    ),
  );
  await waitFor(() => server.calls.length >= 1, 10_000);
  const { payload } = await jwtVerify(server.calls[0]!.form.get('assertion')!, createPublicKey(publicKey), { audience: 'https://oauth2.googleapis.com/token' });
  assert.equal(payload.iss, 'a@b');
  auth.close();
});

test('jwt-bearer: an unusable private key is reported once, without the key, and never sent', async () => {
  const server = await tokenServer(() => ({ status: 200, body: { access_token: 't', expires_in: 3600 } }));
  const { log, lines } = captureLogger();
  const badPem = '-----BEGIN PRIVATE KEY-----\nnot-a-key-SECRETISH\n-----END PRIVATE KEY-----\n';
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'jwt-bearer', tokenUrl: server.url, clientEmail: 'a@b', privateKeyPem: badPem, scope: 's' }), log, {
      tokenTiming: { backoffBaseMs: 20, timers },
    }),
  );
  await waitFor(() => lines.length >= 1, 10_000);
  assert.deepEqual(timers.delays(), [], 'a permanent failure schedules no retry');
  assert.equal(server.calls.length, 0);
  assert.equal(auth.apply(request()), false);
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.equal(line.reason, 'invalid_private_key');
  assert.ok(!lines[0]!.includes('SECRETISH'));
  auth.close();
});

test('close() stops refresh timers and aborts an in-flight mint', async () => {
  const server = await tokenServer(() => ({ status: 200, body: { access_token: 'short', expires_in: 1 } }));
  const timers = new ManualTimers();
  const auth = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: server.url, clientId: 'c', clientSecret: 's' }), captureLogger().log, {
      tokenTiming: { timers },
    }),
  );
  await waitFor(() => auth.apply(request()) === true, 10_000);
  assert.deepEqual(timers.delays(), [500, 1000]);
  auth.close();
  assert.deepEqual(timers.delays(), [], 'the refresh and the expiry are stopped');
  assert.equal(auth.apply(request()), false);

  const slow = await tokenServer(() => ({ status: 200, body: { access_token: 'late', expires_in: 3600 }, delayMs: 300 }));
  const timers2 = new ManualTimers();
  const auth2 = track(
    createUpstreamAuth(provider({ mode: 'oauth-client-credentials', tokenUrl: slow.url, clientId: 'c', clientSecret: 's' }), captureLogger().log, {
      tokenTiming: { timers: timers2 },
    }),
  );
  await waitFor(() => slow.calls.length === 1, 10_000);
  auth2.close();
  // The endpoint's late answer goes to an aborted call: no token, nothing scheduled.
  await waitFor(() => slow.answered === 1, 10_000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(auth2.apply(request()), false);
  assert.deepEqual(timers2.delays(), []);
  assert.equal(slow.calls.length, 1);
});

// A process that holds a token mode exits by itself, with or without close(): its timers and
// its token connection never keep the event loop alive.
const AUTH_MODULE = new URL('../../../../src/worker/upstream/auth/upstream-auth.js', import.meta.url).href;

async function runChild(tokenUrl: string, closeIt: boolean): Promise<{ code: number | null; stdout: string; ms: number }> {
  const script = `
    import { createUpstreamAuth } from ${JSON.stringify(AUTH_MODULE)};
    import { pino } from 'pino';
    const auth = createUpstreamAuth({ name: 'p', protocol: 'openai', origin: 'http://127.0.0.1:9', basePath: '', headers: {}, missingKey: false, allowMetadataHosts: [],
      auth: { mode: 'oauth-client-credentials', tokenUrl: ${JSON.stringify(tokenUrl)}, clientId: 'c', clientSecret: 's' } }, pino({ level: 'silent' }));
    const req = { method: 'POST', origin: 'http://127.0.0.1:9', path: '/', headers: {}, body: '' };
    const poll = setInterval(() => {
      if (!auth.apply(req)) return;
      clearInterval(poll);
      process.stdout.write('ready');
      ${closeIt ? 'auth.close();' : ''}
    }, 10);`;
  const started = Date.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const killer = setTimeout(() => child.kill(), 8000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, ms: Date.now() - started };
}

test("a process holding a token mode exits on its own (timers and socket unref'd), and after close()", async () => {
  const server = await tokenServer(() => ({ status: 200, body: { access_token: 'child-token', expires_in: 1 } }));
  for (const closeIt of [true, false]) {
    const r = await runChild(server.url, closeIt);
    assert.equal(r.stdout, 'ready');
    assert.equal(r.code, 0, `close=${closeIt}: killed after ${r.ms} ms`);
  }
});
