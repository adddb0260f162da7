import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { responsesCodec } from '../../../../src/shared/protocols/responses/codec.js';
import { TranslationRefused } from '../../../../src/shared/protocols/refusal.js';
import { SDK_REQUEST } from './fixtures.js';
import { assistant, image, reasoning, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';
import { assertInvalidRequest } from '../codec-checks.js';

const rejects = (body: unknown, pattern: RegExp): void => assertInvalidRequest(() => responsesCodec.decodeRequest(body, {}), pattern);

describe('responses decodeRequest', () => {
  it('reads an SDK-shaped request; an unmodeled part is kept as unsupported (refused cross-protocol)', () => {
    assert.deepEqual(responsesCodec.decodeRequest(SDK_REQUEST, {}), {
      model: 'gpt-pool',
      system: 'Be brief.\nUse metric units.',
      messages: [
        user(text('Weather here?'), image({ url: 'https://example.com/sky.jpg' }), { type: 'unsupported', what: 'input_file (file_id)' }),
        assistant(reasoning('responses', '', { itemId: 'rs_1' }), text('Checking.'), toolCall('call_1', 'get_weather', '{"city":"Paris"}')),
        toolResult('call_1', '21°C'),
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'tool', name: 'get_weather' },
      maxTokens: 800,
      temperature: 0.2,
      topP: 0.5,
      stream: true,
      reasoning: { effort: 'low' },
    });
    assert.equal(responsesCodec.requestedModel(SDK_REQUEST, {}), 'gpt-pool');
    assert.equal(responsesCodec.requestedStream(SDK_REQUEST, {}), true);
    assert.equal(responsesCodec.streamUsageRequested(SDK_REQUEST), true);
  });

  it('takes a plain string input as one user message', () => {
    assert.deepEqual(responsesCodec.decodeRequest({ model: 'm', input: 'hi' }, {}), {
      model: 'm',
      messages: [user(text('hi'))],
      stream: false,
    });
  });

  it('rejects bodies it cannot read, and out-of-range values', () => {
    rejects({ input: 'x' }, /model is required/);
    rejects({ model: 'm' }, /input is required/);
    rejects({ model: 'm', input: 5 }, /input must be an array/);
    rejects({ model: 'm', input: [{ content: 'x' }] }, /input\[0\]\.type is required/);
    rejects({ model: 'm', input: [{ role: 'robot', content: 'x' }] }, /input\[0\]\.role "robot"/);
    rejects({ model: 'm', input: [{ type: 'function_call', call_id: 'c' }] }, /input\[0\]\.name must be a string/);
    rejects({ model: 'm', input: 'x', max_output_tokens: -5 }, /max_output_tokens must be at least 1, got -5/);
    rejects({ model: 'm', input: 'x', temperature: 9 }, /temperature must be between 0 and 2/);
  });
});

describe('responses encodeRequest', () => {
  it('writes instructions, items in part order, non-strict function tools and the stream flag', () => {
    const out = responsesCodec.encodeRequest(
      {
        model: 'pool',
        system: 'sys',
        stream: true,
        messages: [user(text('hi')), assistant(toolCall('c1', 'f', '{}'), text('after'))],
        tools: [{ name: 'f', parameters: { type: 'object' } }],
      },
      'gpt-5',
    );
    assert.equal(out.path, '/responses');
    assert.deepEqual(JSON.parse(out.body), {
      model: 'gpt-5',
      instructions: 'sys',
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'message', role: 'assistant', content: 'after' },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }],
      stream: true,
    });
  });

  it('refuses stop sequences (the Responses API has none) rather than dropping them', () => {
    assert.throws(
      () =>
        responsesCodec.encodeRequest({ model: 'p', stream: false, stop: ['END'], messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }, 'm'),
      (e: unknown) => e instanceof TranslationRefused && e.reason === 'parameter' && /stop sequences/.test(e.message) && /responses protocol/.test(e.message),
    );
  });
});
