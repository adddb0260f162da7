// The protocol a caller speaks, told from the method, path and headers alone: one row per rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callerProtocol, type HeaderLookup } from '../../src/worker/caller-protocol.js';
import type { ProtocolName } from '../../src/shared/model/types.js';

function headers(h: Record<string, string> = {}): HeaderLookup {
  return (name) => h[name] ?? '';
}

const SIGV4 = 'AWS4-HMAC-SHA256 Credential=AKGWEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=' + '0'.repeat(64);

describe('callerProtocol', () => {
  const byPath: Array<[string, string, ProtocolName]> = [
    ['POST', '/v1/messages/count_tokens', 'anthropic'],
    ['POST', '/v1/messages/batches', 'anthropic'],
    ['GET', '/v1/messages', 'anthropic'],
    ['POST', '/v1beta/models/gemini-2.5-flash:embedContent', 'gemini'],
    ['POST', '/v1beta/cachedContents', 'gemini'],
    ['GET', '/v1beta', 'gemini'],
    ['POST', '/v1/models/gemini-2.5-flash:countTokens', 'gemini'],
    ['POST', '/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:predict', 'gemini'],
    ['POST', '/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke', 'bedrock'],
    ['POST', '/model/m/count-tokens', 'bedrock'],
    ['POST', '/api/embed', 'ollama'],
    ['DELETE', '/api/delete', 'ollama'],
    ['POST', '/v1/responses/input_tokens', 'responses'],
    ['GET', '/v1/responses/resp_123/input_items', 'responses'],
    ['POST', '/v1/embeddings', 'openai'],
    ['POST', '/v1/audio/speech', 'openai'],
    ['GET', '/nowhere', 'openai'],
  ];
  for (const [method, path, want] of byPath) {
    it(`${method} ${path} -> ${want}`, () => assert.equal(callerProtocol(method, path, headers()), want));
  }

  it('the path wins over the headers', () => {
    assert.equal(callerProtocol('POST', '/v1/messages/x', headers({ 'x-goog-api-key': 'k' })), 'anthropic');
    assert.equal(callerProtocol('POST', '/api/embed', headers({ authorization: SIGV4 })), 'ollama');
    assert.equal(callerProtocol('POST', '/v1beta/models/m:x', headers({ 'x-api-key': 'k' })), 'gemini');
  });

  it('a prefix is a whole path segment: /v1/messagesx and /v1/responsesx are not those APIs', () => {
    assert.equal(callerProtocol('POST', '/v1/messagesx', headers()), 'openai');
    assert.equal(callerProtocol('POST', '/v1/responsesx', headers()), 'openai');
    assert.equal(callerProtocol('POST', '/apix', headers()), 'openai');
  });

  const byHeader: Array<[string, Record<string, string>, ProtocolName]> = [
    ['a SigV4 Authorization', { authorization: SIGV4 }, 'bedrock'],
    ['x-goog-api-key', { 'x-goog-api-key': 'AIza-test' }, 'gemini'],
    ['anthropic-version', { 'anthropic-version': '2023-06-01' }, 'anthropic'],
    ['x-api-key', { 'x-api-key': 'sk-ant-test' }, 'anthropic'],
    ['a bearer key', { authorization: 'Bearer sk-test' }, 'openai'],
    ['no credential', {}, 'openai'],
  ];
  for (const [label, h, want] of byHeader) {
    it(`an unknown path with ${label} -> ${want}`, () => assert.equal(callerProtocol('POST', '/v1/unknown', headers(h)), want));
  }

  it('SigV4 wins over the other credential headers (the AWS SDK may send x-api-key-like headers of its own)', () => {
    assert.equal(callerProtocol('POST', '/x', headers({ authorization: SIGV4, 'x-api-key': 'k' })), 'bedrock');
  });

  it("Gemini's ?key= query credential, in the path or given apart", () => {
    assert.equal(callerProtocol('GET', '/v1/files?key=AIza', headers()), 'gemini');
    assert.equal(callerProtocol('GET', '/v1/files', headers(), 'alt=sse&key=AIza'), 'gemini');
    assert.equal(callerProtocol('GET', '/v1/files', headers(), 'monkey=1'), 'openai');
    assert.equal(callerProtocol('GET', '/v1/files', headers(), 'key='), 'openai');
  });

  it('a query does not hide a path rule', () => {
    assert.equal(callerProtocol('POST', '/v1/messages?beta=true', headers()), 'anthropic');
  });
});
