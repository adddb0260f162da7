import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiCodec } from '../../../../src/shared/protocols/gemini/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { vendorStream } from './fixtures.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';

const expected: StreamEvent[] = [
  // The first chunk's prompt count, for callers whose stream opens with it.
  { type: 'start', id: 'Y2xhdWRl', model: 'gemini-2.5-flash', usage: { input: 20, output: 0, cacheRead: 100, cacheCreation: 0 } },
  { type: 'block_start', index: 0, kind: 'reasoning', family: 'gemini' },
  { type: 'reasoning_delta', index: 0, text: 'Considering the sky.' },
  { type: 'block_stop', index: 0 },
  ...textBlock(1, 'The sky ', 'is blue ☀️ — ', 'très.'),
  // The first call's thoughtSignature, as a reasoning block of its own before it.
  { type: 'block_start', index: 2, kind: 'reasoning', family: 'gemini' },
  { type: 'reasoning_state', index: 2, signature: 'CiQB' },
  { type: 'block_stop', index: 2 },
  ...toolBlock(3, 'call_0', 'get_weather', '{"city":"Paris","days":2}'),
  ...toolBlock(4, 'call_1', 'get_time', '{}'),
  ...turnEnd('tool_calls', { input: 20, output: 60, cacheRead: 100, cacheCreation: 0, reasoning: 40 }),
];

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function decodeSplit(data: Uint8Array, at: number): StreamEvent[] {
  const d = geminiCodec.createStreamDecoder();
  return withoutLiterals([...d.push(data.subarray(0, at)), ...d.push(data.subarray(at)), ...d.finish()]);
}

describe('gemini stream decoder', () => {
  it('turns a real stream into the model events, split at every byte offset', () => {
    const data = bytes(vendorStream);
    for (let at = 0; at <= data.length; at++) assert.deepEqual(decodeSplit(data, at), expected, `split at ${at}`);
  });

  it('reads text chunks as Gemini spaces them, with usage on most, in CRLF and LF framing, split at every byte offset', () => {
    const chunk = (part: string, usage: string, finish = ''): string =>
      `data: {"candidates": [{"content": {"parts": [${part}],"role": "model"}${finish},"index": 0}]${usage},"modelVersion": "gemini-2.5-flash","responseId": "abc"}\r\n\r\n`;
    const usage = (n: number): string => `,"usageMetadata": {"promptTokenCount": 10,"candidatesTokenCount": ${n},"totalTokenCount": ${10 + n}}`;
    const stream = [
      chunk('{"text": "Hel"}', usage(0)),
      chunk('{"text": "lo \\"wörld\\" ☀️"}', usage(3)),
      chunk('{"text": ""}', usage(3)),
      chunk('{"text": ", again"}', usage(3)),
      chunk('{"text": "hmm","thought": true}', usage(4)),
      chunk('{"text": "."}', usage(5)),
      chunk('{"text": "!"}', ''),
      chunk('{"text": ""}', '', ',"finishReason": "STOP"'),
    ].join('');
    const want: StreamEvent[] = [
      { type: 'start', id: 'abc', model: 'gemini-2.5-flash', usage: { input: 10, output: 0, cacheRead: 0, cacheCreation: 0 } },
      ...textBlock(0, 'Hel', 'lo "wörld" ☀️', ', again'),
      // A thought part between text parts is a reasoning block between two text blocks.
      { type: 'block_start', index: 1, kind: 'reasoning', family: 'gemini' },
      { type: 'reasoning_delta', index: 1, text: 'hmm' },
      { type: 'block_stop', index: 1 },
      ...textBlock(2, '.', '!'),
      // The latest usageMetadata, from a chunk before the last (which has none).
      ...turnEnd('stop', { input: 10, output: 5, cacheRead: 0, cacheCreation: 0 }),
    ];
    for (const framing of [stream, stream.replace(/\r\n/g, '\n')]) {
      const data = bytes(framing);
      for (let at = 0; at <= data.length; at++) assert.deepEqual(decodeSplit(data, at), want, `split at ${at}`);
    }
  });

  it('reports usage after finish when it arrives in a later chunk, and the latest one wins', () => {
    const d = geminiCodec.createStreamDecoder();
    const events = [
      ...d.push(
        bytes(
          'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1}}\n\n',
        ),
      ),
      ...d.push(bytes('data: {"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}\n\n')),
      ...d.finish(),
    ];
    assert.deepEqual(events.slice(-4), [
      { type: 'finish', reason: 'length' },
      { type: 'usage', usage: { input: 3, output: 1, cacheRead: 0, cacheCreation: 0 } },
      { type: 'usage', usage: { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 } },
      { type: 'end' },
    ]);
  });

  it('raises an error chunk after handing out the events before it', () => {
    const d = geminiCodec.createStreamDecoder();
    const events = d.push(
      bytes(
        'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\n\ndata: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\n\n',
      ),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['start', 'block_start', 'text_delta'],
    );
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && /UNAVAILABLE\): The model is overloaded/.test(e.message),
    );
  });

  it('reports a stream with no finishReason as cut short', () => {
    const d = geminiCodec.createStreamDecoder();
    d.push(bytes(vendorStream.slice(0, vendorStream.indexOf('data:', 10))));
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && /finishReason/.test(e.message),
    );
  });

  it('reports malformed JSON as an upstream error, not a crash', () => {
    assert.throws(
      () => geminiCodec.createStreamDecoder().push(bytes('data: {"candidates":\n\n')),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });
});

describe('gemini stream encoder', () => {
  it('buffers a call into one functionCall chunk with object args and its signature, and ends with finish and usage', () => {
    const enc = geminiCodec.createStreamEncoder();
    const out = expected.map((e) => enc.encode(e));
    // Written: the thought delta, three text deltas, the two calls, the last chunk.
    assert.deepEqual(
      out.map((o) => o !== ''),
      [false, false, true, false, false, true, true, true, false, false, false, false, false, false, true, false, false, true, false, false, true],
    );
    assert.deepEqual(JSON.parse(String(out[2]).slice('data: '.length)).candidates[0].content.parts, [{ text: 'Considering the sky.', thought: true }]);
    const call = JSON.parse(String(out[14]).slice('data: '.length));
    assert.deepEqual(call.candidates[0].content.parts, [
      { functionCall: { id: 'call_0', name: 'get_weather', args: { city: 'Paris', days: 2 } }, thoughtSignature: 'CiQB' },
    ]);
    assert.equal(call.responseId, 'Y2xhdWRl');
    const last = JSON.parse(String(out[20]).slice('data: '.length));
    assert.equal(last.candidates[0].finishReason, 'STOP');
    assert.deepEqual(last.usageMetadata, {
      promptTokenCount: 120,
      candidatesTokenCount: 20,
      totalTokenCount: 180,
      cachedContentTokenCount: 100,
      thoughtsTokenCount: 40,
    });
  });

  it('writes events the decoder reads back', () => {
    const enc = geminiCodec.createStreamEncoder();
    const data = bytes(expected.map((e) => enc.encode(e)).join(''));
    // The start's input side is not written (usage goes out in the last chunk only).
    const want = expected.map((e) => (e.type === 'start' ? { type: 'start', id: e.id, model: e.model } : e));
    for (let at = 0; at <= data.length; at += 11) assert.deepEqual(decodeSplit(data, at), want);
  });

  it('raises bad tool arguments as an upstream error rather than writing broken JSON', () => {
    const enc = geminiCodec.createStreamEncoder();
    enc.encode({ type: 'block_start', index: 0, kind: 'tool_call', id: 'c', name: 'f' });
    enc.encode({ type: 'tool_args_delta', index: 0, json: '{"a":' });
    assert.throws(
      () => enc.encode({ type: 'block_stop', index: 0 }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
  });

  it('writes a mid-stream error as a data: line with an error object, then bare as Google does', () => {
    const body = '{"error":{"code":504,"message":"too slow","status":"DEADLINE_EXCEEDED"}}';
    assert.equal(geminiCodec.createStreamEncoder().error('upstream_timeout', 'too slow'), `data: ${body}\n\n${body}\n`);
  });
});
