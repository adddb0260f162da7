import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { reasoning, text, toolCall } from '../../../helpers/model-turns.js';

// A real Converse answer (reasoning, text, tool use, prompt caching).
const vendorResponse = {
  metrics: { latencyMs: 1914 },
  output: {
    message: {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Need weather.', signature: 'EqQB' } } },
        { text: "I'll check." },
        { toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', input: { city: 'Paris' } } },
      ],
    },
  },
  stopReason: 'tool_use',
  usage: { inputTokens: 20, outputTokens: 40, totalTokens: 1060, cacheReadInputTokens: 1000, cacheWriteInputTokens: 0 },
};

describe('bedrock response', () => {
  it('decodes: reasoning with its signature, tool input as JSON text, usage as reported', () => {
    assertDecodesAnswer(bedrockCodec, vendorResponse, {
      id: 'bedrock-converse',
      model: '',
      content: [
        reasoning('bedrock', 'Need weather.', { signature: 'EqQB' }),
        text("I'll check."),
        toolCall('tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'get_weather', '{"city":"Paris"}'),
      ],
      finishReason: 'tool_calls',
      usage: { input: 20, output: 40, cacheRead: 1000, cacheCreation: 0 },
    });
  });

  it('maps stop reasons', () => {
    const cases = {
      end_turn: 'stop',
      stop_sequence: 'stop',
      max_tokens: 'length',
      tool_use: 'tool_calls',
      guardrail_intervened: 'content_filter',
      content_filtered: 'content_filter',
    } as const;
    for (const [stopReason, reason] of Object.entries(cases)) {
      assert.equal(bedrockCodec.decodeResponse({ ...vendorResponse, stopReason }).finishReason, reason);
    }
  });

  it('encodes a response that decodes back to itself', () => {
    const resp = bedrockCodec.decodeResponse(vendorResponse);
    const wire = JSON.parse(bedrockCodec.encodeResponse(resp));
    assert.deepEqual(wire.output.message.content[0], vendorResponse.output.message.content[0]);
    assert.deepEqual(wire.output.message.content[2], {
      toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', input: { city: 'Paris' } },
    });
    assert.deepEqual(wire.usage, { inputTokens: 20, outputTokens: 40, totalTokens: 1060, cacheReadInputTokens: 1000 });
    assert.deepEqual(bedrockCodec.decodeResponse(wire), resp);
  });

  it('calls a body it cannot read an upstream error', () => {
    assert.throws(
      () => bedrockCodec.decodeResponse([]),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
    assert.equal(bedrockCodec.usageFromResponse({}), null);
  });
});
