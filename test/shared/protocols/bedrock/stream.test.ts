import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { textBlock, toolBlock, turnEnd, withoutLiterals } from '../../../helpers/stream-events.js';
import { awsCodec, concat, eventFrame, exceptionFrame, vendorFrames, vendorStream } from './fixtures.js';

const expected: StreamEvent[] = [
  { type: 'start', id: 'bedrock-converse', model: '' },
  { type: 'block_start', index: 0, kind: 'reasoning', family: 'bedrock' },
  { type: 'reasoning_delta', index: 0, text: 'Thinking about it.' },
  { type: 'reasoning_state', index: 0, signature: 'EqQB' },
  { type: 'block_stop', index: 0 },
  ...textBlock(1, 'Météo ', 'à Paris ☀️'),
  ...toolBlock(2, 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'get_weather', '{"city":', ' "Paris"}'),
  ...turnEnd('tool_calls', { input: 472, output: 89, cacheRead: 300, cacheCreation: 10 }),
];

function decodeSplit(data: Uint8Array, at: number): StreamEvent[] {
  const d = bedrockCodec.createStreamDecoder();
  return withoutLiterals([...d.push(data.subarray(0, at)), ...d.push(data.subarray(at)), ...d.finish()]);
}

const utf8 = new TextDecoder();

describe('bedrock stream decoder', () => {
  it('turns real converse-stream frames into the model events, split at every byte offset', () => {
    for (let at = 0; at <= vendorStream.length; at++) assert.deepEqual(decodeSplit(vendorStream, at), expected, `split at ${at}`);
  });

  it('hands out the events before an exception frame, then raises it', () => {
    const d = bedrockCodec.createStreamDecoder();
    const events = d.push(concat([...vendorFrames.slice(0, 6), exceptionFrame('throttlingException', 'Too many tokens, please wait.')]));
    assert.equal(events.at(-1)?.type, 'text_delta');
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && /throttlingException\): Too many tokens/.test(e.message),
    );
  });

  it('raises a corrupted frame as an upstream error after the good frames before it', () => {
    const bad = vendorStream.slice();
    bad[vendorFrames[0]!.length + vendorFrames[1]!.length + vendorFrames[2]!.length + vendorFrames[3]!.length + 30]! ^= 0x55;
    const d = bedrockCodec.createStreamDecoder();
    const events = d.push(bad);
    // The good frames before it: the start and the whole reasoning block.
    assert.deepEqual(events, expected.slice(0, 5));
    assert.throws(
      () => d.push(new Uint8Array(0)),
      (e: unknown) => e instanceof GatewayError && /checksum/i.test(e.message),
    );
  });

  it('reports a stream without messageStop as cut short', () => {
    const d = bedrockCodec.createStreamDecoder();
    d.push(concat(vendorFrames.slice(0, 8)));
    assert.throws(
      () => d.finish(),
      (e: unknown) => e instanceof GatewayError && /messageStop/.test(e.message),
    );
  });

  it('holds a metadata event that came before messageStop to keep the order', () => {
    const d = bedrockCodec.createStreamDecoder();
    const events = [
      ...d.push(
        concat([
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('metadata', { usage: { inputTokens: 1, outputTokens: 2 } }),
          eventFrame('messageStop', { stopReason: 'max_tokens' }),
        ]),
      ),
      ...d.finish(),
    ];
    assert.deepEqual(events, [
      { type: 'start', id: 'bedrock-converse', model: '' },
      { type: 'finish', reason: 'length' },
      { type: 'usage', usage: { input: 1, output: 2, cacheRead: 0, cacheCreation: 0 } },
      { type: 'end' },
    ]);
  });
});

describe('bedrock stream encoder', () => {
  it('writes Bedrock-shaped frames: no contentBlockStart for text, usage in metadata at the end', () => {
    const enc = bedrockCodec.createStreamEncoder();
    const frames = splitFrames(concat(expected.map((e) => enc.encode(e)).filter((f): f is Uint8Array => f instanceof Uint8Array)));
    const decoded = frames.map((f) => awsCodec.decode(f));
    assert.deepEqual(
      decoded.map((m) => m.headers[':event-type']!.value),
      [
        'messageStart',
        'contentBlockDelta',
        'contentBlockDelta',
        'contentBlockStop',
        'contentBlockDelta',
        'contentBlockDelta',
        'contentBlockStop',
        'contentBlockStart',
        'contentBlockDelta',
        'contentBlockDelta',
        'contentBlockStop',
        'messageStop',
        'metadata',
      ],
    );
    assert.ok(decoded.every((m) => m.headers[':message-type']!.value === 'event' && m.headers[':content-type']!.value === 'application/json'));
    // Reasoning as Bedrock streams it: text deltas, then the signature, then the stop.
    assert.deepEqual(JSON.parse(utf8.decode(decoded[1]!.body)), { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Thinking about it.' } } });
    assert.deepEqual(JSON.parse(utf8.decode(decoded[2]!.body)), { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'EqQB' } } });
    assert.deepEqual(JSON.parse(utf8.decode(decoded[7]!.body)), {
      contentBlockIndex: 2,
      start: { toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' } },
    });
    assert.deepEqual(JSON.parse(utf8.decode(decoded[12]!.body)).usage, {
      inputTokens: 472,
      outputTokens: 89,
      totalTokens: 871,
      cacheReadInputTokens: 300,
      cacheWriteInputTokens: 10,
    });
  });

  it('writes frames the decoder reads back', () => {
    const enc = bedrockCodec.createStreamEncoder();
    const data = concat(expected.map((e) => enc.encode(e)).filter((f): f is Uint8Array => f instanceof Uint8Array));
    for (let at = 0; at <= data.length; at += 5) assert.deepEqual(decodeSplit(data, at), expected);
  });

  it('writes a mid-stream error as an exception frame the SDK knows', () => {
    const enc = bedrockCodec.createStreamEncoder();
    const cases = {
      rate_limited: 'throttlingException',
      exhausted: 'serviceUnavailableException',
      upstream_error: 'modelStreamErrorException',
      internal: 'internalServerException',
      invalid_request: 'validationException',
    } as const;
    for (const [kind, type] of Object.entries(cases)) {
      const m = awsCodec.decode(enc.error(kind as keyof typeof cases, 'went wrong') as Uint8Array);
      assert.equal(m.headers[':message-type']!.value, 'exception');
      assert.equal(m.headers[':exception-type']!.value, type);
      assert.deepEqual(JSON.parse(utf8.decode(m.body)), { message: 'went wrong' });
    }
  });
});

/** An event stream cut into its frames (each starts with its total length, big-endian). */
function splitFrames(data: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < data.length; ) {
    const length = new DataView(data.buffer, data.byteOffset + at, 4).getUint32(0);
    frames.push(data.subarray(at, at + length));
    at += length;
  }
  return frames;
}
