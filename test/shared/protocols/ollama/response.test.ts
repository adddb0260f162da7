import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ollamaCodec } from '../../../../src/shared/protocols/ollama/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { RESPONSE } from './fixtures.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { toolCall } from '../../../helpers/model-turns.js';

describe('ollama non-stream', () => {
  it('decodes a real response: tool calls make tool_calls, counts become usage, an id is made', () => {
    assertDecodesAnswer(ollamaCodec, RESPONSE, {
      id: `ollama-${Date.parse('2025-05-01T10:00:00.000Z')}`,
      model: 'llama3.2',
      content: [toolCall('call_0', 'get_weather', '{"city":"Paris"}')],
      finishReason: 'tool_calls',
      usage: { input: 26, output: 298, cacheRead: 0, cacheCreation: 0 },
    });
    assert.equal(ollamaCodec.usageFromResponse({ model: 'm', message: {} }), null);
  });

  it('reads done_reason length', () => {
    assert.equal(ollamaCodec.decodeResponse({ ...RESPONSE, message: { role: 'assistant', content: 'x' }, done_reason: 'length' }).finishReason, 'length');
  });

  it('encodes counts with cached input folded into prompt_eval_count', () => {
    const body = JSON.parse(
      ollamaCodec.encodeResponse({
        id: 'r',
        model: 'm',
        content: [{ type: 'text', text: 'hi' }],
        finishReason: 'stop',
        usage: { input: 10, output: 2, cacheRead: 5, cacheCreation: 3 },
      }),
    );
    assert.equal(body.done, true);
    assert.equal(body.done_reason, 'stop');
    assert.equal(body.prompt_eval_count, 18);
    assert.equal(body.eval_count, 2);
    assert.deepEqual(body.message, { role: 'assistant', content: 'hi' });
  });

  it('calls upstream tool arguments that are not an object an upstream error', () => {
    assert.throws(
      () =>
        ollamaCodec.encodeResponse({
          id: 'r',
          model: 'm',
          content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"a":' }],
          finishReason: 'tool_calls',
          usage: { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 },
        }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });

  it('writes errors as {"error": ...} and reads upstream ones', () => {
    const err = ollamaCodec.encodeError('model_not_found', 'model "x" not found', 1);
    assert.equal(err.status, 404);
    assert.deepEqual(err.headers, { 'content-type': 'application/json', 'retry-after': '1' });
    assert.deepEqual(JSON.parse(err.body), { error: 'model "x" not found' });
    assert.equal(
      ollamaCodec.upstreamErrorMessage(404, { error: 'model "llama9" not found, try pulling it first' }),
      'model "llama9" not found, try pulling it first',
    );
    assert.equal(ollamaCodec.upstreamErrorMessage(502, 'x'), 'upstream returned HTTP 502');
  });
});
