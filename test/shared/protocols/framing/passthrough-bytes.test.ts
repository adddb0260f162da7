import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { setTopLevelStringBytes } from '../../../../src/shared/protocols/framing/passthrough-bytes.js';
import { rewriteTopLevelString } from '../../../../src/shared/protocols/framing/json-field.js';
import { readTopLevelMembers } from '../../../../src/shared/protocols/framing/top-level-members.js';

/** The bytes path against the text path the pipeline used before: the same bytes, or null. */
function agrees(text: string, value: string): Buffer | null {
  const bytes = Buffer.from(text);
  const head = readTopLevelMembers(bytes, ['model', 'stream']);
  assert.equal(typeof head, 'object', text);
  const out = setTopLevelStringBytes(bytes, 'model', value, head);
  if (out !== null) assert.equal(out.toString('utf8'), rewriteTopLevelString(text, 'model', value, head), text);
  return out;
}

describe('setTopLevelStringBytes', () => {
  it('writes the bytes the text rewrite writes, whatever the body', () => {
    const key = fc.constantFrom('model', 'messages', 'x', 'mod\\u0065l', 'stream');
    const value = fc.oneof(fc.string(), fc.constantFrom('default', 'mock-gpt', 'caf\u00e9', 'a"b', 'model'));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.oneof(value, fc.jsonValue({ maxDepth: 2 }))), { maxLength: 6 }), value, fc.constantFrom('', ' ', '\n'), (members, upstream, space) => {
        const text = `{${members.map(([k, v]) => `${space}"${k}"${space}:${space}${JSON.stringify(v)}`).join(',')}}`;
        agrees(text, upstream);
      }),
      { numRuns: 3000, seed: 14 },
    );
  });

  it('changes only the model value of a chat body, and hands back the same bytes when it already matches', () => {
    const text = '{"model":"default","messages":[{"role":"user","content":"say \\"model\\": x"}],"stream":false}';
    const out = agrees(text, 'mock-gpt');
    assert.equal(out?.toString(), text.replace('"default"', '"mock-gpt"'));
    const same = Buffer.from(text);
    assert.equal(setTopLevelStringBytes(same, 'model', 'default', readTopLevelMembers(same, ['model'])), same);
    assert.equal(agrees('{"model" : "a"}', 'we"ird\\ \u00e9')?.toString(), '{"model" : "we\\"ird\\\\ \u00e9"}');
  });

  it('leaves to the text form what it cannot tell over bytes', () => {
    assert.equal(agrees('{"messages":[]}', 'm'), null); // absent: inserted by the text form
    assert.equal(agrees('{"model":"a","model":"b"}', 'm'), null); // repeated
    assert.equal(agrees('{"a":{"model":"x"},"model":"b"}', 'm'), null); // also nested
    assert.equal(agrees('{"model":"a\\"b"}', 'm'), null); // an escape in the value
    assert.equal(agrees('{"mod\\u0065l":"a"}', 'm'), null); // \u somewhere
    assert.equal(agrees('{"model":7}', 'm'), null); // not a string
  });
});
