import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ollamaCodec } from '../../../../src/shared/protocols/ollama/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { TranslationRefused } from '../../../../src/shared/protocols/refusal.js';
import { PNG, SDK_REQUEST } from './fixtures.js';
import { assistant, image, text, toolCall, toolResult, user } from '../../../helpers/model-turns.js';
import { assertInvalidRequest } from '../codec-checks.js';

const rejects = (body: unknown, pattern: RegExp): void => assertInvalidRequest(() => ollamaCodec.decodeRequest(body, {}), pattern);

describe('ollama decodeRequest', () => {
  it('reads an SDK-shaped request; tool results find their call by name; streams by default', () => {
    assert.deepEqual(ollamaCodec.decodeRequest(SDK_REQUEST, {}), {
      model: 'llama-pool',
      system: 'Be brief.',
      messages: [
        user(text('What is this, and the weather?'), image({ data: PNG, mediaType: 'image/png' })),
        assistant(toolCall('call_0', 'get_weather', '{"city":"Paris"}'), toolCall('call_1', 'get_time', '{"tz":"CET"}')),
        toolResult('call_1', '14:00', { name: 'get_time' }),
        toolResult('call_0', '21°C', { name: 'get_weather' }),
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } }],
      maxTokens: 128,
      temperature: 0.7,
      topP: 0.9,
      stop: ['</s>'],
      stream: true,
      responseFormat: { type: 'json' }, // format json
      reasoning: { effort: 'none' }, // think false
    });
    assert.equal(ollamaCodec.requestedStream(SDK_REQUEST, {}), true);
    assert.equal(ollamaCodec.requestedStream({ ...SDK_REQUEST, stream: false }, {}), false);
    assert.equal(ollamaCodec.requestedModel(SDK_REQUEST, {}), 'llama-pool');
    assert.equal(ollamaCodec.streamUsageRequested(SDK_REQUEST), true);
  });

  it('reads num_predict -1 / -2 as no limit', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    assert.equal(ollamaCodec.decodeRequest({ ...base, options: { num_predict: -1 } }, {}).maxTokens, undefined);
    assert.equal(ollamaCodec.decodeRequest({ ...base, options: { num_predict: -2 } }, {}).maxTokens, undefined);
  });

  it('rejects bodies it cannot read, and out-of-range values', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    rejects({ messages: [] }, /model is required/);
    rejects({ model: 'm' }, /messages is required/);
    rejects({ model: 'm', messages: [] }, /messages must not be empty/);
    rejects({ model: 'm', messages: [{ role: 'user', content: 3 }] }, /messages\[0\]\.content must be a string/);
    rejects({ model: 'm', messages: [{ role: 'user', content: 'x', images: [1] }] }, /messages\[0\]\.images\[0\] must be a string/);
    rejects({ model: 'm', messages: [{ role: 'assistant', tool_calls: [{ function: {} }] }] }, /tool_calls\[0\]\.function\.name must be a string/);
    rejects({ ...base, options: { num_predict: 0 } }, /num_predict must be a positive integer, -1 or -2, got 0/);
    rejects({ ...base, options: { num_predict: -7 } }, /num_predict/);
    rejects({ ...base, options: { temperature: -1 } }, /options\.temperature must be between 0 and 2/);
    rejects({ ...base, options: 'fast' }, /options must be an object/);
    rejects({ ...base, stream: 'no' }, /stream must be a boolean/);
  });
});

describe('ollama encodeRequest', () => {
  it('writes options, stream explicitly, object arguments and tool names', () => {
    const out = ollamaCodec.encodeRequest(
      {
        model: 'pool',
        stream: false,
        maxTokens: 5,
        stop: ['x'],
        messages: [
          user(text('hi'), image({ url: 'data:image/png;base64,iVBORw0K' })),
          assistant(toolCall('toolu_1', 'f', '{"a":[1,2]}')),
          user({ type: 'tool_result', toolCallId: 'toolu_1', content: 'ok', isError: false }),
        ],
      },
      'llama3.2',
    );
    assert.equal(out.path, '/api/chat');
    assert.deepEqual(JSON.parse(out.body), {
      model: 'llama3.2',
      messages: [
        { role: 'user', content: 'hi', images: ['iVBORw0K'] },
        { role: 'assistant', content: '', tool_calls: [{ id: 'toolu_1', function: { name: 'f', arguments: { a: [1, 2] } } }] },
        { role: 'tool', content: 'ok', tool_name: 'f', tool_call_id: 'toolu_1' },
      ],
      options: { num_predict: 5, stop: ['x'] },
      stream: false,
    });
  });

  it('refuses an http(s) image URL and a PDF instead of dropping them; a text file goes as text', () => {
    const refused = [
      { type: 'image', url: 'https://example.com/a.png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf' },
    ] as const;
    for (const part of refused) {
      assert.throws(
        () => ollamaCodec.encodeRequest({ model: 'p', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, part] }] }, 'm'),
        (e: unknown) => e instanceof TranslationRefused && e.reason === 'content_part' && /ollama protocol/.test(e.message),
      );
    }
    const textFile = ollamaCodec.encodeRequest(
      {
        model: 'p',
        stream: false,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Read:' },
              { type: 'file', data: Buffer.from('notes').toString('base64'), mediaType: 'text/plain', name: 'n.txt' },
            ],
          },
        ],
      },
      'm',
    );
    assert.deepEqual(JSON.parse(textFile.body).messages, [{ role: 'user', content: 'Read:\nn.txt\n\nnotes' }]);
  });

  it('rejects history tool arguments that are not a JSON object', () => {
    assert.throws(
      () =>
        ollamaCodec.encodeRequest(
          {
            model: 'p',
            stream: true,
            messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '[1]' }] }],
          },
          'm',
        ),
      (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && /not a JSON object/.test(e.message),
    );
  });
});
