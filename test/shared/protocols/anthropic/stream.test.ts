import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { sse, vendorStream } from './fixtures.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';

const expected: StreamEvent[] = [
  // message_start's input side, for callers whose stream opens with it.
  { type: 'start', id: 'msg_01', model: 'claude-sonnet-4-5', usage: { input: 472, output: 0, cacheRead: 300, cacheCreation: 10 } },
  { type: 'block_start', index: 0, kind: 'reasoning', family: 'anthropic' },
  { type: 'reasoning_delta', index: 0, text: 'Let me look.' },
  { type: 'reasoning_state', index: 0, signature: 'EqQB' },
  { type: 'block_stop', index: 0 },
  ...textBlock(1, 'Météo à ', 'Paris ☀️'),
  ...toolBlock(2, 'toolu_01', 'get_weather', '{"city":', ' "Paris"}'),
  ...turnEnd('tool_calls', { input: 472, output: 89, cacheRead: 300, cacheCreation: 10 }),
];

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function decodeSplit(data: Uint8Array, at: number): StreamEvent[] {
  const d = anthropicCodec.createStreamDecoder();
  return withoutLiterals([...d.push(data.subarray(0, at)), ...d.push(data.subarray(at)), ...d.finish()]);
}

describe('anthropic stream decoder', () => {
  it('turns a real stream into the model events, split at every byte offset', () => {
    const data = bytes(vendorStream);
    for (let at = 0; at <= data.length; at++) assert.deepEqual(decodeSplit(data, at), expected, `split at ${at}`);
  });

  it('decodes one byte at a time', () => {
    const data = bytes(vendorStream);
    const d = anthropicCodec.createStreamDecoder();
    const events: StreamEvent[] = [];
    for (let i = 0; i < data.length; i++) events.push(...d.push(data.subarray(i, i + 1)));
    events.push(...d.finish());
    assert.deepEqual(withoutLiterals(events), expected);
  });

  it('hands out the events before an error event, then raises it', () => {
    const data = bytes(
      vendorStream.slice(0, vendorStream.indexOf('event: content_block_stop\ndata: {"type":"content_block_stop","index":1}')) +
        sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    );
    const d = anthropicCodec.createStreamDecoder();
    const events = d.push(data);
    assert.equal(events[0]!.type, 'start');
    assert.equal(events.at(-1)?.type, 'text_delta');
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && /overloaded_error\): Overloaded/.test(e.message),
    );
  });

  it('raises at once on an error event with nothing before it', () => {
    const d = anthropicCodec.createStreamDecoder();
    assert.throws(() => d.push(bytes(sse('error', { type: 'error', error: { type: 'api_error', message: 'x' } }))), GatewayError);
  });

  it('reports a stream cut short as an upstream error, not a finished answer', () => {
    const d = anthropicCodec.createStreamDecoder();
    d.push(bytes(vendorStream.slice(0, vendorStream.indexOf('event: message_delta'))));
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && /message_stop/.test(e.message),
    );
  });

  it('reports malformed JSON as an upstream error, not a crash', () => {
    const d = anthropicCodec.createStreamDecoder();
    assert.throws(
      () => d.push(bytes('event: content_block_delta\ndata: {nope\n\n')),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });
});

describe('anthropic stream encoder', () => {
  it('writes events the decoder reads back unchanged', () => {
    const enc = anthropicCodec.createStreamEncoder();
    const text = expected.map((e) => enc.encode(e)).join('');
    const data = bytes(text);
    for (let at = 0; at <= data.length; at += 7) assert.deepEqual(decodeSplit(data, at), expected);
  });

  it('writes nothing for finish and usage, and both in message_delta at the end', () => {
    const enc = anthropicCodec.createStreamEncoder();
    assert.equal(enc.encode({ type: 'finish', reason: 'length' }), '');
    assert.equal(enc.encode({ type: 'usage', usage: { input: 1, output: 2, cacheRead: 3, cacheCreation: 4 } }), '');
    const end = String(enc.encode({ type: 'end' }));
    assert.match(
      end,
      /^event: message_delta\ndata: \{"type":"message_delta","delta":\{"stop_reason":"max_tokens","stop_sequence":null\},"usage":\{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":4,"cache_read_input_tokens":3\}\}\n\nevent: message_stop\n/,
    );
  });

  it('writes a mid-stream error as an `event: error` frame', () => {
    const frame = String(anthropicCodec.createStreamEncoder().error('rate_limited', 'slow down'));
    assert.equal(frame, 'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\n\n');
  });
});
