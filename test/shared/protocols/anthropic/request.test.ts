import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { ModelRequest } from '../../../../src/shared/model/types.js';
import { assistant, image, reasoning, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';
import { assertInvalidRequest } from '../codec-checks.js';

const route = {};

// Shaped like what @anthropic-ai/sdk sends for a tool-use conversation.
const vendorRequest = {
  model: 'claude-pool',
  max_tokens: 1024,
  system: [
    { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
    { type: 'text', text: 'Use tools.' },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather in Paris? See:' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a plain-text document' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Weather, then.', signature: 'sig' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: [
            { type: 'text', text: '18C' },
            { type: 'text', text: ' sunny' },
          ],
        },
        { type: 'text', text: 'And tomorrow?' },
      ],
    },
  ],
  tools: [
    { name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  ],
  tool_choice: { type: 'any' },
  temperature: 0.5,
  top_p: 0.9,
  top_k: 40,
  stop_sequences: ['END'],
  stream: true,
  metadata: { user_id: 'u1' },
};

describe('anthropic decodeRequest', () => {
  it('reads the modeled subset of a real request (a text document as text, a system cache marker, thinking as anthropic reasoning) and drops the rest', () => {
    const req = anthropicCodec.decodeRequest(vendorRequest, route);
    assert.deepEqual(req, {
      model: 'claude-pool',
      system: 'You are terse.\nUse tools.',
      systemCache: {},
      messages: [
        user(text('Weather in Paris? See:'), image({ data: 'iVBORw0KGgo=', mediaType: 'image/png' }), text('a plain-text document')),
        assistant(reasoning('anthropic', 'Weather, then.', { signature: 'sig' }), text('Checking.'), toolCall('toolu_01', 'get_weather', '{"city":"Paris"}')),
        toolResult('toolu_01', '18C sunny'),
        user(text('And tomorrow?')),
      ],
      tools: [{ name: 'get_weather', description: 'Weather by city', parameters: vendorRequest.tools[0]!.input_schema as Record<string, unknown> }],
      toolChoice: { type: 'required' },
      maxTokens: 1024,
      temperature: 0.5,
      topP: 0.9,
      stop: ['END'],
      stream: true,
    } satisfies ModelRequest);
    assert.equal(anthropicCodec.requestedModel(vendorRequest, route), 'claude-pool');
    assert.equal(anthropicCodec.requestedStream(vendorRequest, route), true);
    assert.equal(anthropicCodec.requestedStream({ model: 'x' }, route), false);
  });

  it('takes string content and a string system prompt', () => {
    const req = anthropicCodec.decodeRequest({ model: 'm', max_tokens: 5, system: 'S', messages: [{ role: 'user', content: 'hi' }] }, route);
    assert.equal(req.system, 'S');
    assert.deepEqual(req.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    assert.equal(req.stream, false);
  });

  for (const [name, body, needle] of [
    ['a non-object body', [1], 'request body'],
    ['a missing model', { messages: [] }, 'model'],
    ['messages that are not an array', { model: 'm', messages: 'hi' }, 'messages'],
    ['an unknown role', { model: 'm', messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role'],
    ['temperature above 1', { model: 'm', messages: [], temperature: 1.5 }, 'temperature'],
    ['a fractional max_tokens', { model: 'm', messages: [], max_tokens: 1.5 }, 'max_tokens'],
    ['max_tokens of 0', { model: 'm', messages: [], max_tokens: 0 }, 'max_tokens'],
    ['a bad tool_choice', { model: 'm', messages: [], tool_choice: { type: 'some' } }, 'tool_choice'],
    ['a tool without a schema', { model: 'm', messages: [], tools: [{ name: 't' }] }, 'input_schema'],
    ['a non-string stop sequence', { model: 'm', messages: [], stop_sequences: [1] }, 'stop_sequences[0]'],
    ['a tool_result without an id', { model: 'm', messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }, 'tool_use_id'],
  ] as const) {
    it(`rejects ${name} with invalid_request naming the field`, () => {
      assertInvalidRequest(() => anthropicCodec.decodeRequest(body, route), new RegExp(needle.replace(/[[\]]/g, '\\$&')));
    });
  }
});

describe('anthropic encodeRequest', () => {
  const model: ModelRequest = {
    model: 'pool',
    system: 'Be brief.',
    messages: [
      user(text('hi'), image({ url: 'data:image/jpeg;base64,/9j/4AAQ' }), image({ url: 'https://x.test/a.png' })),
      assistant(text(''), toolCall('c1', 'f', '{"a":1}'), toolCall('c2', 'f', '')),
      toolResult('c1', 'one'),
      toolResult('c2', 'boom', { isError: true }),
      user(text('next')),
    ],
    tools: [{ name: 'f', parameters: { type: 'object' } }],
    toolChoice: { type: 'tool', name: 'f' },
    temperature: 0.2,
    stop: ['X'],
    stream: true,
  };

  it('writes the Messages shape, with a default max_tokens and merged user turns', () => {
    const enc = anthropicCodec.encodeRequest(model, 'claude-sonnet-4-5');
    assert.equal(enc.path, '/v1/messages');
    assert.equal(enc.headers?.['anthropic-version'], '2023-06-01');
    assert.deepEqual(JSON.parse(enc.body), {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'c1', name: 'f', input: { a: 1 } },
            { type: 'tool_use', id: 'c2', name: 'f', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
            { type: 'tool_result', tool_use_id: 'c2', content: 'boom', is_error: true },
            { type: 'text', text: 'next' },
          ],
        },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'f' },
      temperature: 0.2,
      stop_sequences: ['X'],
      stream: true,
    });
  });

  it('round-trips through decodeRequest', () => {
    const back = anthropicCodec.decodeRequest(JSON.parse(anthropicCodec.encodeRequest({ ...model, maxTokens: 99 }, 'pool').body), route);
    assert.equal(back.maxTokens, 99);
    assert.deepEqual(back.messages[2], {
      role: 'tool',
      content: [
        { type: 'tool_result', toolCallId: 'c1', content: 'one', isError: false },
        { type: 'tool_result', toolCallId: 'c2', content: 'boom', isError: true },
      ],
    });
    assert.deepEqual(back.toolChoice, model.toolChoice);
  });

  it('refuses a temperature Anthropic cannot take instead of clamping it', () => {
    assert.throws(
      () => anthropicCodec.encodeRequest({ ...model, temperature: 1.7 }, 'm'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && /temperature/.test(e.message),
    );
  });

  it('refuses tool-call arguments that are not a JSON object', () => {
    const bad: ModelRequest = {
      model: 'p',
      stream: false,
      messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '[1]' }] }],
    };
    assert.throws(
      () => anthropicCodec.encodeRequest(bad, 'm'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request',
    );
  });

  it('leaves tool_choice out when there are no tools', () => {
    const body = JSON.parse(anthropicCodec.encodeRequest({ model: 'p', stream: false, messages: [], toolChoice: { type: 'auto' } }, 'm').body);
    assert.equal(body.tool_choice, undefined);
    assert.equal(body.stream, undefined);
  });
});
