import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonShape, JsonShapes } from '../../../../src/shared/protocols/framing/shaped-parse.js';
import { cutShape } from '../../../../src/shared/protocols/framing/text-shape.js';
import { mockChunks, mockUsage } from '../../../../src/mock/content.js';
import { MOCK_PROTOCOLS } from '../../../../src/mock/protocols/index.js';
import { CODECS } from '../../../../src/shared/protocols/index.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import type { FastPathMemo } from '../../../../src/shared/protocols/fast-path/codec-fast-path.js';

describe('JsonShape', () => {
  it('parses later texts of the same shape in place', () => {
    const shape = new JsonShape();
    const text = (id: string, n: number): string =>
      ` {"type":"message_start","message":{"id":"${id}","usage":{"input_tokens":${n},"output_tokens":1}},"list":[${n},"${id}"]}`;
    const first = shape.parse(text('msg_1', 12));
    for (const [id, n] of [
      ['msg_2', 7],
      ['', 0],
      ['x y', 123456],
    ] as const) {
      const got = shape.parse(text(id, n));
      assert.deepEqual(got, JSON.parse(text(id, n)));
      assert.equal(got, first);
    }
    assert.deepEqual(shape.parse(text('a\\nb', 3)), JSON.parse(text('a\\nb', 3)));
    assert.throws(() => shape.parse(text('a', 3).replace(':3', ':03')), SyntaxError);
  });

  it('agrees with JSON.parse over texts of a few shapes (property)', () => {
    const word = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', '12', '"', '\\', '\u2028', '\t'));
    const count = fc.oneof(fc.nat({ max: 100_000 }), fc.constantFrom(0, 2 ** 53, 1.5, -3));
    const text = fc
      .tuple(fc.nat(4), word, count, count)
      .map(([other, w, a, b]) =>
        other === 0
          ? JSON.stringify([w, a, { b }])
          : JSON.stringify({ type: 'e', id: w, usage: { input_tokens: a, output_tokens: b }, content: [{ text: w }] }),
      );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 12 }), (texts) => {
        const shape = new JsonShape();
        for (const t of texts) assert.deepEqual(shape.parse(t), JSON.parse(t), t);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('TextShape.matchWhole', () => {
  it('tells a text of the shape exactly when matchFromEnd finds it from the start, and reads the same values (property)', () => {
    // Raw texts, not JSON.stringify's: leading zeros, 15 and 16 digits, escapes, control
    // characters and spaces where a learnt shape has none.
    const integer = fc.oneof(fc.nat({ max: 1000 }).map(String), fc.constantFrom('0', '00', '012', '999999999999999', '1000000000000000', '-1', '1.5', '1e3'));
    const content = fc.oneof(
      fc.string({ maxLength: 6 }).filter((w) => !/["\\\x00-\x1f]/.test(w)),
      fc.constantFrom('', 'a\\"b', '\\n', '\t', 'q"', '\u2028', ' x '),
    );
    const template = (n1: string, w: string, n2: string, space: string): string =>
      `{"type":"e","n":${n1},"id":"${w}",${space}"list":[${n2},"${w}",{"deep":${n1}}],"end":true}`;
    const text = fc.tuple(integer, content, integer, fc.constantFrom('', ' '));
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 10 }), (first, later) => {
        const t0 = template(...first);
        let parsed: unknown;
        try {
          parsed = JSON.parse(t0);
        } catch {
          return;
        }
        const holder = { data: parsed };
        const shape = cutShape(t0, 0, 0, holder, 'data');
        if (shape === null) return;
        for (const args of later) {
          const t = template(...args);
          const fromEnd: boolean = shape.matchFromEnd(t) === 0;
          const byEnd: string | null = fromEnd ? JSON.stringify(holder.data) : null;
          assert.equal(shape.matchWhole(t), fromEnd, t);
          if (fromEnd) {
            assert.equal(JSON.stringify(holder.data), byEnd, t);
            assert.deepEqual(holder.data, JSON.parse(t), t);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('JsonShapes', () => {
  it('keeps a shape per kind, up to a bound, and parses beyond it', () => {
    const shapes = new JsonShapes();
    for (let round = 0; round < 3; round++) {
      for (let kind = 0; kind < 40; kind++) {
        const text = `{"kind":${kind},"round":${round},"name":"k${kind}"}`;
        assert.deepEqual(shapes.parse(`k${kind}`, text), JSON.parse(text));
      }
    }
  });
});

/** Every event a lane's decoder gives for the mock's stream, as plain data. */
function decoded(lane: 'responses' | 'anthropic' | 'bedrock' | 'openai', memo: FastPathMemo | undefined, chunks: number, usage: number): StreamEvent[] {
  const parts = MOCK_PROTOCOLS[lane].renderStream({
    model: 'mock-model',
    toolName: null,
    pieces: mockChunks(chunks),
    usage: mockUsage(usage, 0, chunks),
    includeUsage: lane === 'openai',
    usageOnLast: false,
  });
  const decoder = CODECS[lane].createStreamDecoder(memo);
  const events: StreamEvent[] = [];
  for (const p of [parts.head, ...parts.pieces, parts.tail]) events.push(...decoder.push(Buffer.from(p)));
  events.push(...decoder.finish());
  return JSON.parse(JSON.stringify(events)) as StreamEvent[];
}

describe('stream decoders with a lane memo', () => {
  for (const lane of ['responses', 'anthropic', 'bedrock', 'openai'] as const) {
    it(`${lane}: stream after stream, the same events as without one`, () => {
      const memo: FastPathMemo = { usageEvent: null, eventShapes: null, responsesDeltas: null, chatDeltas: null, geminiText: null };
      for (const [chunks, usage] of [
        [5, 12],
        [7, 3],
        [5, 12],
        [1, 999],
      ] as const) {
        assert.deepEqual(decoded(lane, memo, chunks, usage), decoded(lane, undefined, chunks, usage));
      }
      assert.notEqual(memo.eventShapes, null);
      if (lane === 'openai') assert.notEqual(memo.chatDeltas?.text ?? null, null);
    });
  }
});
