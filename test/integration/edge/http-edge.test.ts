// HTTP/1.1 at the edge, seen from raw sockets and plain HTTP: 405 with Allow for a known path
// asked with the wrong method, a 404 that names no provider "v1", 415 for a content-encoding
// the gateway does not decode, and the honest 502 of a cross-protocol answer over the
// translate-body cap. Pipelining and the header limits of this uWS build are pinned in
// pipelining.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rawPost } from '../../helpers/clients/raw.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const CAP_BYTES = 4096;

const stack = suiteStack({ workers: 1, over: { advanced: { translate_body_cap_bytes: CAP_BYTES } } });

const url = (path: string): string => `${stack.gateway.url}${path}`;
const json = (body: Buffer): Record<string, any> => JSON.parse(body.toString('utf8')) as Record<string, any>;

describe('a known path with the wrong method: 405 with Allow', () => {
  for (const [method, path, allow, shape] of [
    ['GET', '/v1/chat/completions', 'POST', 'openai'],
    ['PUT', '/v1/responses', 'POST', 'openai'],
    ['GET', '/v1/messages', 'POST', 'anthropic'],
    ['GET', '/v1beta/models/pool-gemini:generateContent', 'POST', 'gemini'],
    ['DELETE', '/model/pool-bedrock/converse', 'POST', 'bedrock'],
    ['GET', '/api/chat', 'POST', 'ollama'],
    ['POST', '/healthz', 'GET, HEAD', 'openai'],
    ['PUT', '/metrics', 'GET', 'openai'],
  ] as const) {
    it(`${method} ${path} -> 405, Allow: ${allow}, ${shape} shape`, async () => {
      const a = await rawPost(url(path), method === 'GET' || method === 'DELETE' ? '' : '{}', { method });
      assert.equal(a.status, 405);
      assert.equal(a.headers.allow, allow);
      const body = json(a.body);
      if (shape === 'openai') assert.equal(body.error.code, 'method_not_allowed');
      if (shape === 'anthropic') assert.equal(body.type, 'error');
      if (shape === 'gemini') assert.equal(body.error.code, 405);
      if (shape === 'bedrock') assert.equal(a.headers['x-amzn-errortype'], 'ValidationException');
      if (shape === 'ollama') assert.equal(typeof body.error, 'string');
      assert.match(JSON.stringify(body), new RegExp(`${method} is not allowed`));
    });
  }

  it('GET and HEAD /healthz still answer 200', async () => {
    const a = await rawPost(url('/healthz'), '', { method: 'GET' });
    assert.equal(a.status, 200);
    assert.equal(a.body.toString(), 'ok');
    const h = await rawPost(url('/healthz'), '', { method: 'HEAD' });
    assert.equal(h.status, 200);
    assert.equal(h.body.length, 0);
  });
});

describe('an unknown path: 404 that names no provider', () => {
  it('POST /v1/foo (two segments, first not a provider) -> 404 route_not_found', async () => {
    const a = await rawPost(url('/v1/foo'), '{"model":"x"}');
    assert.equal(a.status, 404);
    const body = json(a.body);
    assert.equal(body.error.code, 'route_not_found');
    assert.doesNotMatch(body.error.message, /provider/);
    assert.match(body.error.message, /no route for POST \/v1\/foo/);
  });

  it('GET /v1/foo -> 404 naming the method and path', async () => {
    const a = await rawPost(url('/v1/foo'), '', { method: 'GET' });
    assert.equal(a.status, 404);
    assert.match(json(a.body).error.message, /no route for GET \/v1\/foo/);
  });

  it('a real provider with an unknown model still says which provider', async () => {
    const a = await rawPost(url('/mock-openai/no-such-model'), '{"model":"x","messages":[{"role":"user","content":"hi"}]}');
    assert.equal(a.status, 404);
    assert.match(json(a.body).error.message, /provider "mock-openai" has no lane for model "no-such-model"/);
  });
});

describe('a content-encoding the gateway does not decode: 415', () => {
  const body = '{"model":"pool-anthropic","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}';
  for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
    it(`content-encoding: ${encoding} -> 415 in the route's shape, Accept-Encoding: identity`, async () => {
      const a = await rawPost(url('/v1/messages'), body, { headers: { 'content-encoding': encoding } });
      assert.equal(a.status, 415);
      assert.equal(a.headers['accept-encoding'], 'identity');
      const e = json(a.body);
      assert.equal(e.type, 'error', 'anthropic shape');
      assert.match(e.error.message, /content-encoding/);
    });
  }

  it('content-encoding: identity is the body as is', async () => {
    const a = await rawPost(url('/v1/messages'), body, { headers: { 'content-encoding': 'identity' } });
    assert.equal(a.status, 200);
  });
});

describe('a cross-protocol answer over the translate-body cap', () => {
  it('is a 502 that says so, not "the upstream provider connection failed"', async () => {
    const prompt = `big [mock response_bytes=${CAP_BYTES * 4}]`;
    const a = await rawPost(url('/v1/chat/completions'), JSON.stringify({ model: 'pool-anthropic', messages: [{ role: 'user', content: prompt }] }));
    assert.equal(a.status, 502);
    const message = json(a.body).error.message as string;
    assert.match(message, /larger than the translation limit/);
    assert.match(message, new RegExp(`translate_body_cap_bytes = ${CAP_BYTES}`));
    assert.doesNotMatch(message, /connection failed/);
  });

  it('a same-protocol answer over the cap still streams through', async () => {
    const prompt = `big [mock response_bytes=${CAP_BYTES * 4}]`;
    const a = await rawPost(url('/v1/chat/completions'), JSON.stringify({ model: 'pool-openai', messages: [{ role: 'user', content: prompt }] }));
    assert.equal(a.status, 200);
    assert.ok(a.body.length > CAP_BYTES);
  });
});
