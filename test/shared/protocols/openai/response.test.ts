import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiCodec } from '../../../../src/shared/protocols/openai/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { COMPLETION } from './fixtures.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { text, toolCall } from '../../../helpers/model-turns.js';

describe('openai responses (non-stream)', () => {
  it('decodes a real completion; prompt_tokens includes the cached ones', () => {
    assertDecodesAnswer(openaiCodec, COMPLETION, {
      id: 'chatcmpl-abc123',
      model: 'gpt-4o-2024-08-06',
      content: [text('Checking the weather.'), toolCall('call_abc', 'get_weather', '{"city":"Paris"}')],
      finishReason: 'tool_calls',
      usage: { input: 86, output: 300, cacheRead: 1920, cacheCreation: 0 },
    });
  });

  it('reads a refusal as text, and no usage as zero (usageFromResponse: null)', () => {
    const body = { id: 'x', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'No.' }, finish_reason: 'stop' }] };
    const resp = openaiCodec.decodeResponse(body);
    assert.deepEqual(resp.content, [{ type: 'text', text: 'No.' }]);
    assert.deepEqual(resp.usage, { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 });
    assert.equal(openaiCodec.usageFromResponse(body), null);
  });

  it('maps finish reasons', () => {
    const reason = (r: unknown) => openaiCodec.decodeResponse({ choices: [{ message: { content: 'x' }, finish_reason: r }] }).finishReason;
    assert.equal(reason('stop'), 'stop');
    assert.equal(reason('length'), 'length');
    assert.equal(reason('tool_calls'), 'tool_calls');
    assert.equal(reason('function_call'), 'tool_calls');
    assert.equal(reason('content_filter'), 'content_filter');
  });

  it('encodes prompt_tokens as input + cache read + cache creation', () => {
    const body = JSON.parse(
      openaiCodec.encodeResponse({
        id: 'r',
        model: 'm',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        finishReason: 'length',
        usage: { input: 10, output: 2, cacheRead: 5, cacheCreation: 3 },
      }),
    );
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].message.content, 'ab');
    assert.equal(body.choices[0].finish_reason, 'length');
    assert.deepEqual(body.usage, { prompt_tokens: 18, completion_tokens: 2, total_tokens: 20, prompt_tokens_details: { cached_tokens: 5 } });
  });

  it('calls a body without choices an upstream error', () => {
    assert.throws(
      () => openaiCodec.decodeResponse({ error: 'x' }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });

  it('reads upstream error messages and cuts key-shaped words', () => {
    assert.equal(
      openaiCodec.upstreamErrorMessage(401, {
        error: { message: 'Incorrect API key provided: sk-proj-abc***wxyz. You can find your API key at ...', type: 'invalid_request_error' },
      }),
      'Incorrect API key provided: [redacted]. You can find your API key at ...',
    );
    assert.equal(openaiCodec.upstreamErrorMessage(500, { error: 'plain' }), 'plain');
    assert.equal(openaiCodec.upstreamErrorMessage(503, undefined), 'upstream returned HTTP 503');
  });
});
