import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompiledAuth, CompiledProvider } from '../../../../src/shared/config/compiled.js';
import { createUpstreamAuth, passthroughCredential, type OutgoingRequest } from '../../../../src/worker/upstream/auth/upstream-auth.js';

function provider(auth: CompiledAuth, missingKey = false): CompiledProvider {
  return { name: 'p', protocol: 'openai', origin: 'http://127.0.0.1:9', basePath: '', auth, headers: {}, missingKey, allowMetadataHosts: [] };
}

function request(): OutgoingRequest {
  return { method: 'POST', origin: 'http://127.0.0.1:9', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: '{}' };
}

test('none adds nothing and succeeds synchronously', () => {
  const req = request();
  const ok = createUpstreamAuth(provider({ mode: 'none' })).apply(req);
  assert.equal(ok, true);
  assert.deepEqual(req.headers, { 'content-type': 'application/json' });
});

test('bearer writes Authorization: Bearer <key>', () => {
  const auth = createUpstreamAuth(provider({ mode: 'bearer', token: 'sk-test' }));
  const req = request();
  assert.equal(auth.apply(req), true);
  assert.equal(req.headers.authorization, 'Bearer sk-test');
  // The same precomputed string on every request.
  const again = request();
  auth.apply(again);
  assert.equal(again.headers.authorization, 'Bearer sk-test');
});

test('header writes the named header in lower case', () => {
  const req = request();
  assert.equal(createUpstreamAuth(provider({ mode: 'header', header: 'X-Api-Key', value: 'ak-1' })).apply(req), true);
  assert.equal(req.headers['x-api-key'], 'ak-1');
  assert.equal(req.headers.authorization, undefined);
});

test('header with an invalid name is a clear error', () => {
  assert.throws(() => createUpstreamAuth(provider({ mode: 'header', header: 'bad header', value: 'v' })), /invalid header name/);
});

test('missing key: apply() is false in every mode, and nothing is written', () => {
  const modes: CompiledAuth[] = [
    { mode: 'bearer', token: '' },
    { mode: 'header', header: 'x-api-key', value: '' },
    { mode: 'sigv4', region: 'us-east-1', service: 'bedrock', accessKeyId: '', secretAccessKey: '' },
    { mode: 'oauth-client-credentials', tokenUrl: 'http://127.0.0.1:9/t', clientId: 'c', clientSecret: '' },
    { mode: 'jwt-bearer', tokenUrl: 'http://127.0.0.1:9/t', clientEmail: 'a@b', privateKeyPem: '', scope: 's' },
  ];
  for (const mode of modes) {
    const auth = createUpstreamAuth(provider(mode, true));
    const req = request();
    assert.equal(auth.apply(req), false, mode.mode);
    assert.deepEqual(req.headers, { 'content-type': 'application/json' });
    auth.close();
  }
});

test('an unknown mode is a clear error naming it', () => {
  const bad = { mode: 'kerberos' } as unknown as CompiledAuth;
  assert.throws(() => createUpstreamAuth(provider(bad)), /unknown upstream auth mode "kerberos"/);
});

test('passthrough forwards only the caller credential headers', () => {
  const forwarded = passthroughCredential({
    authorization: 'Bearer caller',
    'x-api-key': 'ak',
    'x-goog-api-key': 'gk',
    'api-key': 'az',
    'content-type': 'application/json',
    cookie: 'c=1',
  });
  assert.deepEqual(forwarded, { authorization: 'Bearer caller', 'x-api-key': 'ak', 'x-goog-api-key': 'gk', 'api-key': 'az' });
  assert.deepEqual(passthroughCredential({ 'content-type': 'x', authorization: '' }), {});
});
