import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { UsageShape } from '../../../../src/shared/protocols/framing/usage-shape.js';
import { topLevelValueText } from '../../../../src/shared/protocols/framing/json-field.js';

/** What the long way reads: the field's value, parsed, in a body of its own; null when absent. */
function longWay(text: string, field: string): Record<string, unknown> | null {
  const value = topLevelValueText(text, field);
  return value === undefined ? null : { [field]: JSON.parse(value) as unknown };
}

/** An OpenAI completion with these counts (the mock's layout: usage, then two members). */
function completion(prompt: number, completion: number, cached: number, fingerprint = 'fp_1'): string {
  return (
    `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi \\"usage\\":1"},"finish_reason":"stop"}],` +
    `"usage":{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"prompt_tokens_details":{"cached_tokens":${cached},"audio_tokens":0}},` +
    `"service_tier":"default","system_fingerprint":"${fingerprint}"}`
  );
}

describe('UsageShape', () => {
  it('reads later bodies of the same shape in place, with their own counts', () => {
    const shape = new UsageShape('usage');
    const first = shape.read(completion(12, 50, 0));
    for (const [p, c, k] of [
      [12, 50, 0],
      [7, 1234, 3],
      [0, 0, 0],
      [99_999_999_999_998, 1, 10],
    ] as const) {
      const text = completion(p, c, k);
      const read = shape.read(text);
      assert.deepEqual(read, longWay(text, 'usage'));
      assert.equal(read, first, 'read in place: the object learnt first, rewritten');
    }
  });

  it('reads what the shape cannot hold the long way: another tail, other spellings of a count', () => {
    const shape = new UsageShape('usage');
    const first = completion(1, 2, 0);
    assert.deepEqual(shape.read(first), longWay(first, 'usage'));
    for (const text of [
      completion(1, 2, 0, 'fp_2'),
      completion(1, 2, 0).replace('"completion_tokens":2', '"completion_tokens":2.5'),
      completion(1, 2, 0).replace('"completion_tokens":2', '"completion_tokens":-2'),
      completion(1, 2, 0).replace('"completion_tokens":2', '"completion_tokens":2e3'),
      completion(1, 2, 0).replace('"completion_tokens":2', '"completion_tokens":null'),
      completion(1, 2, 0).replace('"completion_tokens":2', '"completion_tokens":1234567890123456'),
      completion(1, 2, 0).replace('"system_fingerprint"', '"usage":{"prompt_tokens":5},"system_fingerprint"'),
      completion(1, 2, 0).replace('"service_tier":"default",', ''),
      completion(1, 2, 0) + '\n',
    ]) {
      assert.deepEqual(shape.read(text), longWay(text, 'usage'), text);
      assert.deepEqual(shape.read(first), longWay(first, 'usage'), text);
    }
  });

  it('does not read a count with a leading zero, which is not JSON', () => {
    const shape = new UsageShape('usage');
    shape.read(completion(10, 2, 0));
    assert.throws(() => shape.read(completion(10, 2, 0).replace('"prompt_tokens":10', '"prompt_tokens":01')));
  });

  it('keeps no shape for duplicate keys or escapes, and still reads them as JSON.parse does', () => {
    for (const usage of ['{"a":1,"a":2}', '{"a\\u0062":1}', '{"a":"x\\"y","b":2}', '{"__proto__":1}']) {
      const text = `{"x":1,"usage":${usage}}`;
      const shape = new UsageShape('usage');
      assert.deepEqual(shape.read(text), longWay(text, 'usage'));
      assert.deepEqual(shape.read(text), longWay(text, 'usage'));
    }
  });

  it('agrees with the long way over a lane of bodies of a few shapes (property)', () => {
    const count = fc.oneof(fc.nat({ max: 100_000 }), fc.nat({ max: 100_000 }), fc.constantFrom(0, 9, 10, 2 ** 53, 1e15, 1.5, -1));
    const usages: ((a: number, b: number) => string)[] = [
      (a, b) => `{"prompt_tokens":${a},"completion_tokens":${b},"prompt_tokens_details":{"cached_tokens":${a}}}`,
      (a, b) => `{ "promptTokenCount": ${a}, "promptTokensDetails": [{"modality":"TEXT","tokenCount":${a}}], "candidatesTokenCount":${b} }`,
      (a, b) => `{"input_tokens":${a},"output_tokens":${b},"cache_creation_input_tokens":null,"service_tier":"standard"}`,
      (a) => String(a),
    ];
    const tails = ['}', ',"a":"b"}', ',"a":[1,{"usage":2}]}\n', ',"usage" :{"x":1}}', ',"b":{"c":3}}'];
    const leads = ['{"id":"1",', '{', '{"s":"\\"usage\\":2",'];
    // A lane's bodies: mostly one shape with new counts, now and then another.
    const body = fc
      .tuple(fc.nat(9), fc.nat(3), fc.nat(4), fc.nat(2), count, count)
      .map(([other, u, t, l, a, b]) => (other === 0 ? `${leads[l]}"usage":${usages[u]!(a, b)}${tails[t]}` : `{"id":"1","usage":${usages[0]!(a, b)},"a":"b"}`));
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 12 }), (bodies) => {
        const shape = new UsageShape('usage');
        for (const text of bodies) assert.deepEqual(shape.read(text), longWay(text, 'usage'), text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('UsageShape.readBytes', () => {
  it('reads a body given as bytes as read() reads its text: tails of every length, characters of many bytes, escapes near the usage', () => {
    const content = fc.array(fc.constantFrom('a', 'é', '€', '𝄞', '\\"', '\\\\', ' ', '\\"usage\\":{'), { maxLength: 120 }).map((parts) => parts.join(''));
    const fingerprint = fc.array(fc.constantFrom('f', 'p', '_', 'é', '9'), { maxLength: 140 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(content, fc.nat(9_999), fc.nat(9_999), fingerprint), { minLength: 1, maxLength: 6 }), (bodies) => {
        const byText = new UsageShape('usage');
        const byBytes = new UsageShape('usage');
        for (const [text, prompt, completionTokens, fp] of bodies) {
          const body = completion(prompt, completionTokens, 0, fp).replace('hi \\"usage\\":1', text);
          assert.deepEqual(byBytes.readBytes(Buffer.from(body)), byText.read(body), body);
        }
      }),
      { numRuns: 500, seed: 14 },
    );
  });

  it('reads the body whole when its tail holds no match, and a short body whole', () => {
    const shape = new UsageShape('usage');
    shape.read(completion(1, 2, 0));
    const longFingerprint = completion(3, 4, 0, 'x'.repeat(300));
    assert.deepEqual(shape.readBytes(Buffer.from(longFingerprint)), longWay(longFingerprint, 'usage'));
    assert.deepEqual(shape.readBytes(Buffer.from('{"usage":{"prompt_tokens":1}}')), { usage: { prompt_tokens: 1 } });
  });
});
