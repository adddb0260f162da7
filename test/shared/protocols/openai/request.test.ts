import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiCodec } from '../../../../src/shared/protocols/openai/codec.js';
import { SDK_REQUEST } from './fixtures.js';
import { assistant, image, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';
import { assertInvalidRequest } from '../codec-checks.js';

const rejects = (body: unknown, pattern: RegExp): void => assertInvalidRequest(() => openaiCodec.decodeRequest(body, {}), pattern);

describe('openai decodeRequest', () => {
  it('reads an SDK-shaped request; an unmodeled part is kept as unsupported (refused cross-protocol)', () => {
    const req = openaiCodec.decodeRequest(SDK_REQUEST, {});
    assert.deepEqual(req, {
      model: 'gpt-pool',
      system: 'Be brief.\nUse metric units.',
      messages: [
        user(text('Weather here?'), image({ data: '/9j/4AAQ', mediaType: 'image/jpeg' }), { type: 'unsupported', what: 'input_audio' }),
        assistant(toolCall('call_1', 'get_weather', '{"city":"Paris"}')),
        toolResult('call_1', '21°C'),
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'required' },
      maxTokens: 500,
      temperature: 0,
      topP: 1,
      stop: ['STOP'],
      stream: true,
    });
  });

  it('reads the request-level flags without a full decode', () => {
    assert.equal(openaiCodec.requestedModel(SDK_REQUEST, {}), 'gpt-pool');
    assert.equal(openaiCodec.requestedStream(SDK_REQUEST, {}), true);
    assert.equal(openaiCodec.streamUsageRequested(SDK_REQUEST), true);
    assert.equal(openaiCodec.streamUsageRequested({ stream: true }), false);
    assert.equal(openaiCodec.requestedStream({ model: 'm' }, {}), false);
    assert.equal(openaiCodec.requestedModel({ model: 3 }, {}), undefined);
    assert.equal(openaiCodec.requestedModel('nope', {}), undefined);
  });

  it('takes max_tokens when max_completion_tokens is absent, and synthesizes missing call ids', () => {
    const req = openaiCodec.decodeRequest(
      {
        model: 'm',
        max_tokens: 9,
        messages: [{ role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] }],
      },
      {},
    );
    assert.equal(req.maxTokens, 9);
    assert.deepEqual(req.messages[0]!.content, [{ type: 'tool_call', id: 'call_0', name: 'f', arguments: '{"a":1}' }]);
  });

  it('rejects bodies it cannot read, naming the field', () => {
    rejects([], /request body must be an object/);
    rejects({ messages: [] }, /model is required/);
    rejects({ model: 'm' }, /messages is required/);
    rejects({ model: 'm', messages: {} }, /messages must be an array/);
    rejects({ model: 'm', messages: [] }, /messages must not be empty/);
    rejects({ model: 'm', messages: [{ content: 'x' }] }, /messages\[0\]\.role must be a string/);
    rejects({ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, /messages\[0\]\.role "robot"/);
    rejects({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }, /messages\[0\]\.content\[0\]\.text must be a string/);
    rejects({ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, /messages\[0\]\.tool_call_id must be a string/);
    rejects({ model: 'm', messages: [{ role: 'user', content: 'x' }], tool_choice: 'sometimes' }, /tool_choice "sometimes"/);
  });

  it('rejects out-of-range values instead of clamping', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    rejects({ ...base, max_tokens: -1 }, /max_tokens must be at least 1, got -1/);
    rejects({ ...base, max_completion_tokens: 0 }, /max_completion_tokens must be at least 1/);
    rejects({ ...base, max_tokens: 2.5 }, /max_tokens must be an integer/);
    rejects({ ...base, temperature: 2.5 }, /temperature must be between 0 and 2/);
    rejects({ ...base, top_p: -0.1 }, /top_p must be between 0 and 1/);
    rejects({ ...base, stream: 'yes' }, /stream must be a boolean/);
  });
});

describe('openai encodeRequest', () => {
  const req = { model: 'pool', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], stream: true };

  it('asks for usage on streams and writes the lane model', () => {
    const out = openaiCodec.encodeRequest(req, 'gpt-4o');
    assert.equal(out.path, '/chat/completions');
    assert.deepEqual(JSON.parse(out.body), {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('writes stream false explicitly and no stream_options', () => {
    assert.deepEqual(JSON.parse(openaiCodec.encodeRequest({ ...req, stream: false }, 'g').body), {
      model: 'g',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
  });

  it('splits tool results carried in a user message (as Anthropic does) into tool messages first', () => {
    const body = JSON.parse(
      openaiCodec.encodeRequest(
        {
          model: 'p',
          stream: false,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'tool_result', toolCallId: 'c1', content: 'r1', isError: false },
                { type: 'text', text: 'and?' },
              ],
            },
          ],
        },
        'g',
      ).body,
    );
    assert.deepEqual(body.messages, [
      { role: 'tool', tool_call_id: 'c1', content: 'r1' },
      { role: 'user', content: 'and?' },
    ]);
  });
});
