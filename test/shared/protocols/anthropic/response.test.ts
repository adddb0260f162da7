import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { reasoning, text, toolCall } from '../../../helpers/model-turns.js';

// A real Messages response (with extended thinking and a tool call).
const vendorResponse = {
  id: 'msg_01Aq9w938a90dw8q',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'thinking', thinking: 'The user wants weather.', signature: 'EqQBCgIYAhIM' },
    { type: 'text', text: "I'll check." },
    { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'celsius' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 2095, cache_creation_input_tokens: 100, cache_read_input_tokens: 1800, output_tokens: 503, service_tier: 'standard' },
};

describe('anthropic response', () => {
  it('decodes a real response: thinking with its signature, tool input as JSON text, uncached input kept', () => {
    assertDecodesAnswer(anthropicCodec, vendorResponse, {
      id: 'msg_01Aq9w938a90dw8q',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        reasoning('anthropic', 'The user wants weather.', { signature: 'EqQBCgIYAhIM' }),
        text("I'll check."),
        toolCall('toolu_01A09q90qw90lq917835lq9', 'get_weather', '{"location":"San Francisco, CA","unit":"celsius"}'),
      ],
      finishReason: 'tool_calls',
      usage: { input: 2095, output: 503, cacheRead: 1800, cacheCreation: 100 },
    });
  });

  it('maps every stop reason', () => {
    const cases = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_calls', refusal: 'content_filter' } as const;
    for (const [stop, reason] of Object.entries(cases)) {
      assert.equal(anthropicCodec.decodeResponse({ ...vendorResponse, stop_reason: stop }).finishReason, reason);
    }
  });

  it('encodes a response that decodes back to itself', () => {
    const resp = anthropicCodec.decodeResponse(vendorResponse);
    for (const finishReason of ['stop', 'length', 'tool_calls', 'content_filter'] as const) {
      const wire = JSON.parse(anthropicCodec.encodeResponse({ ...resp, finishReason }));
      assert.equal(wire.type, 'message');
      assert.equal(wire.role, 'assistant');
      assert.deepEqual(wire.content[0], vendorResponse.content[0]);
      assert.deepEqual(wire.content[2].input, { location: 'San Francisco, CA', unit: 'celsius' });
      assert.deepEqual(anthropicCodec.decodeResponse(wire), { ...resp, finishReason });
    }
  });

  it('calls a body it cannot read an upstream error', () => {
    assert.throws(
      () => anthropicCodec.decodeResponse('nope'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
    assert.throws(
      () => anthropicCodec.decodeResponse({ id: 'x' }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
    assert.equal(anthropicCodec.usageFromResponse({}), null);
  });
});
