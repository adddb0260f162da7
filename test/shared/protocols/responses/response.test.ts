import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { responsesCodec } from '../../../../src/shared/protocols/responses/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { RESPONSE, STREAM_USAGE } from './fixtures.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { reasoning, text, toolCall } from '../../../helpers/model-turns.js';

describe('responses non-stream', () => {
  it('decodes a real response; input_tokens includes the cached ones; the reasoning item is reasoning with its id', () => {
    assertDecodesAnswer(responsesCodec, RESPONSE, {
      id: 'resp_68af4030592c81938ec0a5fbab4a3e9f',
      model: 'gpt-5-2025-08-07',
      content: [reasoning('responses', '', { itemId: 'rs_68af4031a1' }), text('Checking Paris.'), toolCall('call_Q8aZ3k', 'get_weather', '{"city":"Paris"}')],
      finishReason: 'tool_calls',
      usage: STREAM_USAGE,
    });
    assert.equal(responsesCodec.usageFromResponse({ ...RESPONSE, usage: undefined }), null);
  });

  it('reads incomplete responses as length / content_filter', () => {
    const text = [{ type: 'message', content: [{ type: 'output_text', text: 'x' }] }];
    assert.equal(
      responsesCodec.decodeResponse({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: text }).finishReason,
      'length',
    );
    assert.equal(
      responsesCodec.decodeResponse({ status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: text }).finishReason,
      'content_filter',
    );
    assert.equal(responsesCodec.decodeResponse({ status: 'completed', output: text }).finishReason, 'stop');
  });

  it('calls a failed or shapeless body an upstream error', () => {
    const upstream = (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error';
    assert.throws(
      () => responsesCodec.decodeResponse({ status: 'failed', output: [], error: { code: 'server_error', message: 'boom' } }),
      (e: unknown) => upstream(e) && (e as Error).message === 'boom',
    );
    assert.throws(() => responsesCodec.decodeResponse({ choices: [] }), upstream);
  });

  it('encodes length as incomplete with max_output_tokens, and input_tokens with cache', () => {
    const body = JSON.parse(
      responsesCodec.encodeResponse({
        id: 'r',
        model: 'm',
        content: [{ type: 'text', text: 'a' }],
        finishReason: 'length',
        usage: { input: 10, output: 2, cacheRead: 5, cacheCreation: 3 },
      }),
    );
    assert.equal(body.object, 'response');
    assert.equal(body.status, 'incomplete');
    assert.deepEqual(body.incomplete_details, { reason: 'max_output_tokens' });
    assert.deepEqual(body.output, [
      { id: 'msg_0', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'a', annotations: [] }] },
    ]);
    assert.deepEqual(body.usage, {
      input_tokens: 18,
      input_tokens_details: { cached_tokens: 5 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20,
    });
  });

  it("writes errors in OpenAI's shape with the responses status table", () => {
    const err = responsesCodec.encodeError('insufficient_quota', 'budget spent', 60);
    assert.equal(err.status, 429);
    assert.equal(err.headers['retry-after'], '60');
    assert.deepEqual(JSON.parse(err.body), { error: { message: 'budget spent', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });
  });
});
