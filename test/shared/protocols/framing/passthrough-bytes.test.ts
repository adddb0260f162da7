import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { spliceString } from '../../../../src/shared/protocols/framing/passthrough-bytes.js';
import { rewriteTopLevelString } from '../../../../src/shared/protocols/framing/json-field.js';
import { readTopLevelMembers, type StringSpan } from '../../../../src/shared/protocols/framing/top-level-members.js';

/** The bytes path against the text path the pipeline used before: the same bytes, or null. */
function agrees(text: string, value: string): Buffer | null {
  const bytes = Buffer.from(text);
  const span: StringSpan = { start: 0, end: 0 };
  const head = readTopLevelMembers(bytes, ['model', 'stream'], span);
  if (typeof head !== 'object') return null; // left to JSON.parse (a key with an escape): the text form rewrites
  if (span.start < 0) return null;
  const spliced = spliceString(bytes, span, value);
  const out = Buffer.from(spliced.buffer, spliced.byteOffset, spliced.byteLength);
  assert.equal(out.toString('utf8'), rewriteTopLevelString(text, 'model', value, head), text);
  return out;
}

describe('spliceString over the span readTopLevelMembers found', () => {
  it('writes the bytes the text rewrite writes, whatever the body', () => {
    const key = fc.constantFrom('model', 'messages', 'x', 'mod\\u0065l', 'stream');
    const value = fc.oneof(fc.string(), fc.constantFrom('default', 'mock-gpt', 'caf\u00e9', 'a"b', 'model'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.oneof(value, fc.jsonValue({ maxDepth: 2 }))), { maxLength: 6 }),
        value,
        fc.constantFrom('', ' ', '\n'),
        (members, upstream, space) => {
          const text = `{${members.map(([k, v]) => `${space}"${k}"${space}:${space}${JSON.stringify(v)}`).join(',')}}`;
          agrees(text, upstream);
        },
      ),
      { numRuns: 3000, seed: 14 },
    );
  });

  it('changes only the model value of a chat body, and hands back the same bytes when it already matches', () => {
    const text = '{"model":"default","messages":[{"role":"user","content":"say \\"model\\": x"}],"stream":false}';
    const out = agrees(text, 'mock-gpt');
    assert.equal(out?.toString(), text.replace('"default"', '"mock-gpt"'));
    const same = Buffer.from(text);
    const span: StringSpan = { start: -1, end: -1 };
    readTopLevelMembers(same, ['model'], span);
    assert.equal(spliceString(same, span, 'default'), same);
    // Edits carved one after another from a slab do not overlap: the first is still intact.
    const edits = Array.from({ length: 500 }, (_, i) => [i, agrees(text, `m-${i}`)!.toString()] as const);
    for (const [i, edit] of edits) assert.equal(edit, text.replace('"default"', `"m-${i}"`));
    const long = `{"model":"m","x":"${'y'.repeat(200)}"}`;
    assert.equal(agrees(long, 'mock-gpt')?.toString(), long.replace('"m"', '"mock-gpt"'));
    const late = `{"x":"${'y'.repeat(200)}","model":"a-long-name"}`; // a long start, and a shorter value
    assert.equal(agrees(late, 'b')?.toString(), late.replace('"a-long-name"', '"b"'));
    assert.equal(agrees('{"model" : "a"}', 'we"ird\\ \u00e9')?.toString(), '{"model" : "we\\"ird\\\\ \u00e9"}');
  });

  it('has no span where only the text form can rewrite', () => {
    assert.equal(agrees('{"messages":[]}', 'm'), null); // absent: inserted by the text form
    assert.equal(agrees('{"model":"a","model":"b"}', 'm'), null); // repeated
    assert.equal(agrees('{"model":"a\\"b"}', 'm'), null); // an escape in the value
    assert.equal(agrees('{"mod\\u0065l":"a"}', 'm'), null); // an escape in the key
    assert.equal(agrees('{"model":"a","mod\\u0065l":"b"}', 'm'), null); // repeated, once spelt with an escape
    assert.equal(agrees('{"model":7}', 'm'), null); // not a string
    // A nested member of the same name is not the top-level one.
    assert.equal(agrees('{"a":{"model":"x"},"model":"b","c":"\\u0041"}', 'm')?.toString(), '{"a":{"model":"x"},"model":"m","c":"\\u0041"}');
  });
});
