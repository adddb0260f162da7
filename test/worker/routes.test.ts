// The route table's kinds: Gemini's one model path takes the route of its action (countTokens,
// embedContent, batchEmbedContents), any other action stays chat's; the method table knows the
// new paths, so a wrong method there is a 405 with the right Allow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES, STORED_RESPONSE_ROUTES, routeOfRequest } from '../../src/worker/routes.js';
import { allowedMethods } from '../../src/worker/method-table.js';

const gemini = ROUTES.find((r) => r.pattern === '/v1beta/models/:modelAction')!;

describe('routeOfRequest', () => {
  for (const [segment, kind, extra] of [
    ['gemini-2.5-flash:generateContent', 'protocol', undefined],
    ['gemini-2.5-flash:streamGenerateContent', 'protocol', undefined],
    ['gemini-2.5-flash:countTokens', 'count', 'gemini'],
    ['text-embedding-004:embedContent', 'embeddings', 'gemini-embed'],
    ['text-embedding-004:batchEmbedContents', 'embeddings', 'gemini-batch'],
    ['gemini-2.5-flash:generateAnswer', 'protocol', undefined],
    ['no-action', 'protocol', undefined],
  ] as const) {
    it(`${segment} -> ${kind}`, () => {
      const route = routeOfRequest(gemini, [segment]);
      assert.equal(route.kind, kind);
      assert.equal(route.count ?? route.embeddings, extra);
      if (kind !== 'protocol') assert.equal(route.actionInPath, true);
    });
  }

  it('a route without actions is itself', () => {
    const messages = ROUTES.find((r) => r.pattern === '/v1/messages')!;
    assert.equal(routeOfRequest(messages, []), messages);
  });
});

describe("the method table knows the kinds' paths", () => {
  for (const [path, allow] of [
    ['/v1/messages/count_tokens', 'POST'],
    ['/v1/embeddings', 'POST'],
    ['/api/embed', 'POST'],
    ['/model/m/count-tokens', 'POST'],
    ['/v1/responses/resp_1', 'GET, DELETE'],
    ['/v1/responses/resp_1/input_items', 'GET'],
  ] as const) {
    it(`${path}: ${allow}`, () => assert.equal(allowedMethods(path)?.allow, allow));
  }

  it('every stored-response route is a GET or a DELETE', () => {
    for (const r of STORED_RESPONSE_ROUTES) assert.ok(r.method === 'get' || r.method === 'del');
  });
});
