import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cutShape } from '../../../../src/shared/protocols/framing/text-shape.js';
import { lastMemberSpan, type ValueSpan } from '../../../../src/shared/protocols/framing/json-field.js';

/** The shape of `text` from its last top-level `key` member, learnt as usage-shape.ts learns it. */
function learn(text: string, key: string): { shape: NonNullable<ReturnType<typeof cutShape>>; holder: Record<string, unknown> } {
  const span: ValueSpan = { keyStart: 0, start: 0, end: 0 };
  assert.ok(lastMemberSpan(text, key, span), text);
  const holder: Record<string, unknown> = { [key]: JSON.parse(text.slice(span.start, span.end)) as unknown };
  const shape = cutShape(text, span.keyStart, span.start, holder, key);
  assert.ok(shape !== null, text);
  return { shape, holder };
}

describe('TextShape.matchTail', () => {
  it('finds the start matchFromEnd walks back to, and writes the same values (property)', () => {
    const word = fc.stringMatching(/^[a-z "u:{},0-9]{0,12}$/).map((s) => s.replace(/"/g, ''));
    const count = fc.oneof(fc.nat({ max: 99 }), fc.nat(), fc.constantFrom(0, 10, 1e14));
    // Leads that hold the shape's first piece (or most of it) again, before the real start.
    const leads = ['{', '{"note":"x",', '{"usage":{"n":1},', '{"a":{"usage":{"n":', '{"usage":{"n":12,"s":"'];
    fc.assert(
      fc.property(fc.nat(leads.length - 1), count, count, word, word, (l, a, b, s, t) => {
        const model = `${leads[0]}"usage":{"n":1,"m":2,"s":"w"},"tail":"t"}`;
        const { shape, holder } = learn(model, 'usage');
        const text = `${leads[l]}${l === 3 ? '1}},' : l === 4 ? 'x"},' : ''}"usage":{"n":${a},"m":${b},"s":"${s}"},"tail":"${t}"}`;
        const other = learn(model, 'usage');
        const fromEnd = other.shape.matchFromEnd(text);
        const tail = shape.matchTail(text);
        assert.equal(tail, fromEnd, text);
        if (tail >= 0) assert.deepEqual(holder, other.holder, text);
        // Not the shape: a changed piece, a count that is not a plain integer.
        const broken = text.replace(`"m":${b}`, `"m":-${b}`);
        assert.equal(shape.matchTail(broken), other.shape.matchFromEnd(broken), broken);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a text shorter than the shape, or without its first piece, unmatched', () => {
    const { shape } = learn('{"usage":{"n":1},"a":"b"}', 'usage');
    assert.equal(shape.matchTail(''), -1);
    assert.equal(shape.matchTail('},"a":"b"}'), -1);
    assert.equal(shape.matchTail('{"x":{"n":1},"a":"b"}'), -1);
    assert.equal(shape.matchTail('{"usage":{"n":12345},"a":"b"}'), 1);
  });

  it('writes every slot of a shape with more slots than storeShapeSlot has store sites, nested and in arrays', () => {
    const value = (n: number) => ({ flat: Array.from({ length: 14 }, (_, i) => i + n), inner: { s: `w${n}`, d: { k: n } } });
    const text = (n: number) => `{"usage":${JSON.stringify(value(n))},"tail":"t"}`;
    const { shape, holder } = learn(text(1), 'usage');
    for (const n of [7, 123456, 0]) {
      assert.equal(shape.matchTail(text(n)), 1);
      assert.deepEqual(holder, { usage: value(n) });
    }
  });
});
