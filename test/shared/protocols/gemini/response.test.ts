import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiCodec } from '../../../../src/shared/protocols/gemini/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { assertDecodesAnswer } from '../codec-checks.js';
import { reasoning, text, toolCall } from '../../../helpers/model-turns.js';

// A real generateContent answer: thinking summary, two text parts, a call, cached prompt.
const vendorResponse = {
  candidates: [
    {
      content: {
        parts: [
          { text: 'Planning...', thought: true },
          { text: 'Checking ' },
          { text: 'now.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB' },
        ],
        role: 'model',
      },
      finishReason: 'STOP',
      index: 0,
      safetyRatings: [],
    },
  ],
  usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 30, totalTokenCount: 1080, cachedContentTokenCount: 800, thoughtsTokenCount: 50 },
  modelVersion: 'gemini-2.5-pro',
  responseId: 'mVq0aP',
};

describe('gemini response', () => {
  it('decodes: thoughts and signatures as reasoning, text parts joined, STOP with a call is tool_calls, cached tokens split out of the prompt', () => {
    assertDecodesAnswer(geminiCodec, vendorResponse, {
      id: 'mVq0aP',
      model: 'gemini-2.5-pro',
      content: [
        reasoning('gemini', 'Planning...'),
        text('Checking now.'),
        // The call's thoughtSignature, as reasoning of its own just before it.
        reasoning('gemini', '', { signature: 'CiQB' }),
        toolCall('call_0', 'get_weather', '{"city":"Paris"}'),
      ],
      finishReason: 'tool_calls',
      usage: { input: 200, output: 80, cacheRead: 800, cacheCreation: 0, reasoning: 50 },
    });
  });

  it('maps finish reasons', () => {
    const text = { content: { parts: [{ text: 'x' }], role: 'model' }, index: 0 };
    const cases = {
      STOP: 'stop',
      MAX_TOKENS: 'length',
      SAFETY: 'content_filter',
      RECITATION: 'content_filter',
      BLOCKLIST: 'content_filter',
      PROHIBITED_CONTENT: 'content_filter',
    } as const;
    for (const [finishReason, reason] of Object.entries(cases)) {
      assert.equal(geminiCodec.decodeResponse({ candidates: [{ ...text, finishReason }] }).finishReason, reason);
    }
  });

  it('reads a blocked prompt (no candidates) as content_filter', () => {
    const resp = geminiCodec.decodeResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 9 } });
    assert.equal(resp.finishReason, 'content_filter');
    assert.deepEqual(resp.content, []);
    assert.equal(resp.id, 'gemini-response');
  });

  it('encodes a response that decodes back to itself, args as an object', () => {
    const resp = geminiCodec.decodeResponse(vendorResponse);
    const wire = JSON.parse(geminiCodec.encodeResponse(resp));
    assert.deepEqual(wire.candidates[0].content.parts, [
      { text: 'Planning...', thought: true },
      { text: 'Checking now.' },
      { functionCall: { id: 'call_0', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB' },
    ]);
    assert.equal(wire.candidates[0].finishReason, 'STOP');
    assert.deepEqual(wire.usageMetadata, {
      promptTokenCount: 1000,
      candidatesTokenCount: 30,
      totalTokenCount: 1080,
      cachedContentTokenCount: 800,
      thoughtsTokenCount: 50,
    });
    assert.deepEqual(geminiCodec.decodeResponse(wire), resp);
  });

  it('never sends an empty parts list (the SDK chat history refuses it)', () => {
    const wire = JSON.parse(
      geminiCodec.encodeResponse({ id: 'r', model: 'm', content: [], finishReason: 'stop', usage: { input: 1, output: 0, cacheRead: 0, cacheCreation: 0 } }),
    );
    assert.deepEqual(wire.candidates[0].content.parts, [{ text: '' }]);
  });

  it('calls a body it cannot read an upstream error', () => {
    assert.throws(
      () => geminiCodec.decodeResponse(null),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
    assert.equal(geminiCodec.usageFromResponse({ candidates: [] }), null);
  });
});
