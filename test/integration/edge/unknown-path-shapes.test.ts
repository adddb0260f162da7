// An unknown path, and a known one asked with the wrong method, answered in the protocol the
// path and headers name (src/worker/caller-protocol.ts): Anthropic `type: error`, Gemini
// `error.status`, Bedrock `x-amzn-errortype`, Ollama `{error}`, Responses and OpenAI
// `error.type` -- so each vendor's SDK reads the refusal as its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { suiteStack } from '../../helpers/clients/stack.js';

const stack = suiteStack();

async function ask(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(method === 'GET' ? {} : { body: '{}' }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) };
}

describe('an unknown path is answered in the protocol it names', () => {
  it('Gemini: /v1beta/... -> error.status NOT_FOUND', async () => {
    const a = await ask('POST', '/v1beta/cachedContents/x/y');
    assert.equal(a.status, 404);
    assert.equal(a.body.error.status, 'NOT_FOUND');
    assert.equal(a.body.error.code, 404);
  });

  it('Bedrock: /model/{id}/invoke -> x-amzn-errortype', async () => {
    const a = await ask('POST', '/model/pool-bedrock/invoke');
    assert.equal(a.status, 404);
    assert.match(a.headers.get('x-amzn-errortype') ?? '', /^ResourceNotFoundException/);
    assert.equal(typeof a.body.message, 'string');
  });

  it('Ollama: /api/... -> {error}, whether a direct route took it or no route did', async () => {
    for (const [method, path] of [
      ['POST', '/api/pull'],
      ['GET', '/api/ps/x'],
      ['POST', '/api/blobs/sha256'],
    ] as const) {
      const a = await ask(method, path);
      assert.equal(a.status, 404, `${method} ${path}`);
      assert.equal(typeof a.body.error, 'string', `${method} ${path}: ${JSON.stringify(a.body)}`);
    }
  });

  it('Anthropic: /v1/messages/... -> type: error', async () => {
    const a = await ask('POST', '/v1/messages/batches');
    assert.equal(a.status, 404);
    assert.equal(a.body.type, 'error');
    assert.equal(a.body.error.type, 'not_found_error');
  });

  it('Anthropic by its headers on a path that names no protocol', async () => {
    const a = await ask('POST', '/v2/complete', { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
    assert.equal(a.status, 404);
    assert.equal(a.body.type, 'error');
  });

  it('Gemini by its key header on a path that names no protocol', async () => {
    const a = await ask('GET', '/v3/things/x', { 'x-goog-api-key': 'k' });
    assert.equal(a.status, 404);
    assert.equal(a.body.error.status, 'NOT_FOUND');
  });

  it('OpenAI otherwise', async () => {
    const a = await ask('POST', '/v1/foo');
    assert.equal(a.status, 404);
    assert.equal(a.body.error.code, 'route_not_found');
  });
});

describe("a wrong method is answered in the route's protocol, with Allow", () => {
  const cases: Array<[string, string, (body: any) => void]> = [
    // eslint-disable-line @typescript-eslint/no-explicit-any
    ['GET', '/v1/messages', (b) => assert.equal(b.type, 'error')],
    ['GET', '/api/chat', (b) => assert.equal(typeof b.error, 'string')],
    ['PUT', '/v1/embeddings', (b) => assert.equal(b.error.type, 'invalid_request_error')],
    ['POST', '/v1/responses/resp_1', (b) => assert.equal(b.error.type, 'invalid_request_error')],
  ];
  for (const [method, path, check] of cases) {
    it(`${method} ${path} -> 405`, async () => {
      const a = await ask(method, path);
      assert.equal(a.status, 405);
      assert.ok((a.headers.get('allow') ?? '') !== '');
      check(a.body);
    });
  }

  it('Bedrock: GET /model/{id}/converse -> 405 with x-amzn-errortype', async () => {
    const a = await ask('GET', '/model/pool-bedrock/converse');
    assert.equal(a.status, 405);
    assert.match(a.headers.get('x-amzn-errortype') ?? '', /^ValidationException/);
  });
});
