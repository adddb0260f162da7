import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openaiCodec } from '../../../../src/shared/protocols/openai/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { TOOL_STREAM, TOOL_STREAM_USAGE } from './fixtures.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';

const utf8 = new TextEncoder();

function decode(text: string, chunkSize = Infinity): StreamEvent[] {
  const dec = openaiCodec.createStreamDecoder();
  const bytes = utf8.encode(text);
  const out: StreamEvent[] = [];
  const step = Math.min(chunkSize, bytes.length || 1);
  for (let i = 0; i < bytes.length; i += step) out.push(...dec.push(bytes.subarray(i, i + step)));
  out.push(...dec.finish());
  return withoutLiterals(out);
}

const TOOL_EVENTS: StreamEvent[] = [
  { type: 'start', id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG', model: 'gpt-4o-2024-08-06' },
  ...textBlock(0, 'Let me ', 'check ☀️.'),
  ...toolBlock(1, 'call_DdmO9pD3xa9XTPNJ32zg2hcA', 'get_weather', '{"ci', 'ty": "Paris"}'),
  ...toolBlock(2, 'call_9gWzvH1sK2', 'get_time', '{}'),
  ...turnEnd('tool_calls', TOOL_STREAM_USAGE),
];

describe('openai stream decoder', () => {
  it('decodes a real stream with parallel tool calls and the usage chunk', () => {
    assert.deepEqual(decode(TOOL_STREAM), TOOL_EVENTS);
    assert.deepEqual(decode(TOOL_STREAM, 3), TOOL_EVENTS);
  });

  it('decodes CRLF framing', () => {
    assert.deepEqual(decode(TOOL_STREAM.replaceAll('\n', '\r\n'), 17), TOOL_EVENTS);
  });

  it('holds usage that arrives before finish (hosts that report it on every chunk) until after finish', () => {
    const events = decode(
      [
        'data: {"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"x"}}],"usage":{"prompt_tokens":3,"completion_tokens":1}}\n\n',
        'data: {"id":"a","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}\n\n',
        'data: [DONE]\n\n',
      ].join(''),
    );
    assert.deepEqual(events.slice(-4), [
      { type: 'block_stop', index: 0 },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 } },
      { type: 'end' },
    ]);
  });

  it('takes a tool call that arrives whole in one chunk, without id', () => {
    const events = decode(
      'data: {"id":"a","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{\\"a\\":1}"}}]},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
    );
    assert.deepEqual(events, [
      { type: 'start', id: 'a', model: 'm' },
      { type: 'block_start', index: 0, kind: 'tool_call', id: 'call_0', name: 'f' },
      { type: 'tool_args_delta', index: 0, json: '{"a":1}' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'end' },
    ]);
  });

  it('completes a stream that ends after finish_reason without [DONE]', () => {
    const events = decode('data: {"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}\n\n');
    assert.deepEqual(events.slice(-3), [{ type: 'block_stop', index: 0 }, { type: 'finish', reason: 'stop' }, { type: 'end' }]);
  });

  it('calls a stream cut before finish_reason an upstream error', () => {
    const dec = openaiCodec.createStreamDecoder();
    assert.equal(dec.push(utf8.encode('data: {"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n')).length, 3);
    assert.throws(
      () => dec.finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && /before finish_reason/.test(e.message),
    );
    assert.throws(
      () => openaiCodec.createStreamDecoder().finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });

  it('hands out the events before an upstream error event, then raises it', () => {
    const dec = openaiCodec.createStreamDecoder();
    const events = dec.push(
      utf8.encode(
        'data: {"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n' +
          'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n',
      ),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['start', 'block_start', 'text_delta'],
    );
    const overloaded = (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && e.message === 'overloaded';
    assert.throws(() => dec.push(utf8.encode('data: [DONE]\n\n')), overloaded);
    assert.throws(() => dec.finish(), overloaded);
    assert.throws(() => openaiCodec.createStreamDecoder().push(utf8.encode('data: {nope\n\n')), /not JSON/);
  });
});

describe('openai stream encoder', () => {
  it('writes usage only when it gets a usage event, and [DONE] last', () => {
    const enc = openaiCodec.createStreamEncoder();
    const out = TOOL_EVENTS.filter((e) => e.type !== 'usage')
      .map((e) => enc.encode(e))
      .join('');
    assert.ok(!out.includes('"usage"'));
    assert.ok(out.endsWith('data: [DONE]\n\n'));
  });

  it('writes the mid-stream error as a data line with an error object', () => {
    const out = openaiCodec.createStreamEncoder().error('rate_limited', 'slow down');
    assert.equal(out, 'data: {"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"rate_limited"}}\n\n');
  });
});
