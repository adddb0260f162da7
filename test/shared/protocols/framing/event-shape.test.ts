import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EventShape, eventData } from '../../../../src/shared/protocols/framing/event-shape.js';

/** What the long way reads: the frame's data, parsed. */
function parsed(frame: string): unknown {
  return JSON.parse(eventData(frame));
}

/** Chat Completions' usage-only chunk as OpenAI writes it: the id, the counts and the padding change. */
function usageChunk(id: string, prompt: number, completion: number, padding = 'xyz'): string {
  return (
    `data: {"id":"${id}","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","choices":[],` +
    `"usage":{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"prompt_tokens_details":{"cached_tokens":0}},"obfuscation":"${padding}"}\n\n`
  );
}

describe('EventShape', () => {
  it('reads later frames of the same shape in place, with their own ids and counts', () => {
    const shape = new EventShape();
    const first = shape.parse(usageChunk('chatcmpl-1', 12, 50));
    for (const [id, p, c, pad] of [
      ['chatcmpl-2', 7, 1234, 'a'],
      ['', 0, 0, ''],
      ['x', 99_999, 1, '12'],
    ] as const) {
      const frame = usageChunk(id, p, c, pad);
      const data = shape.parse(frame);
      assert.deepEqual(data, parsed(frame));
      assert.equal(data, first, 'read in place: the data learnt first, rewritten');
    }
  });

  it('reads a Responses frame with its event line', () => {
    const shape = new EventShape();
    const frame = (text: string, n: number): string =>
      `event: response.completed\ndata: {"type":"response.completed","sequence_number":${n},"response":{"output":[{"content":[{"text":"${text}"}]}],"usage":{"input_tokens":${n},"output_tokens":3}}}\n\n`;
    for (const [text, n] of [
      ['Hello there', 55],
      ['other words', 7],
      ['', 0],
    ] as const)
      assert.deepEqual(shape.parse(frame(text, n)), parsed(frame(text, n)));
  });

  it('parses what the shape cannot hold, and refuses what JSON.parse refuses', () => {
    const shape = new EventShape();
    const base = usageChunk('chatcmpl-1', 12, 50);
    shape.parse(base);
    for (const frame of [
      base.replace('chatcmpl-1', 'chat\\"cmpl'),
      base.replace('chatcmpl-1', 'chat\\ncmpl'),
      base.replace('"prompt_tokens":12', '"prompt_tokens":12.5'),
      base.replace('"prompt_tokens":12', '"prompt_tokens":1234567890123456'),
      base.replace('"choices":[],', ''),
      base.replace('data: {', 'data:{'),
      base.replace('\n\n', '\r\n\r\n'),
      `data: {"a":1}\ndata: {"b":2}\n\n`.replace('{"a":1}\ndata: {"b":2}', '[1,\ndata: 2]'),
    ]) {
      assert.deepEqual(shape.parse(frame), parsed(frame), frame);
      assert.deepEqual(shape.parse(base), parsed(base), frame);
    }
    for (const bad of [base.replace('"prompt_tokens":12', '"prompt_tokens":012'), base.replace('chatcmpl-1', 'chat\tcmpl')]) {
      assert.throws(() => shape.parse(bad), SyntaxError);
      assert.deepEqual(shape.parse(base), parsed(base));
    }
  });

  it('agrees with JSON.parse over a lane of frames of a few shapes (property)', () => {
    const word = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', '12', '"', 'a"b', '\\', 'é', '\t'));
    const count = fc.oneof(fc.nat({ max: 100_000 }), fc.nat({ max: 100_000 }), fc.constantFrom(0, 2 ** 53, 1.5, -3));
    const frame = fc.tuple(fc.nat(9), word, count, count, fc.boolean()).map(([other, w, a, b, eventLine]) => {
      const data =
        other === 0
          ? JSON.stringify({ choices: [], usage: { a, b }, tag: [w, a] })
          : JSON.stringify({ id: w, usage: { prompt_tokens: a, completion_tokens: b }, obfuscation: w });
      return `${eventLine ? 'event: e\n' : ''}data: ${data}\n\n`;
    });
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 12 }), (frames) => {
        const shape = new EventShape();
        for (const f of frames) assert.deepEqual(shape.parse(f), parsed(f), f);
      }),
      { numRuns: 1000 },
    );
  });
});
