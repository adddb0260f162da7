// The text-line fast path reads a line only when the full decoder would read the same text
// from it and nothing else: checked on known shapes and on seeded random variants against
// JSON.parse (the end-to-end byte comparison is test/integration/translation/fast-path-identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OllamaTextLineReader } from '../../../../src/shared/protocols/ollama/stream-fast-path.js';
import { decodeToolCalls } from '../../../../src/shared/protocols/ollama/response.js';
import { parseOrSkip } from '../parse-or-skip.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

const HEAD = '{"model":"llama3.2","created_at":';
const line = (lit: string, createdAt = '"2025-05-01T10:00:00.123456789Z"', tail = '},"done":false}'): string =>
  `${HEAD}${createdAt},"message":{"role":"assistant","content":${lit}${tail}`;

/**
 * What the full decoder takes from the line after the stream's first: the content text when
 * that is all it adds (no error, no tool call, not done), else null.
 */
function slowRead(data: string): string | null {
  const obj = parseOrSkip(data) as Record<string, unknown> | undefined;
  if (obj === undefined) return null;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return null;
  if (typeof obj.error === 'string' || obj.done === true) return null;
  const msg = obj.message as Record<string, unknown> | null;
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return null;
  if (decodeToolCalls(msg.tool_calls, 0).length > 0) return null;
  return typeof msg.content === 'string' && msg.content !== '' ? msg.content : null;
}

/** The reader's text for `data` (alone, or in place inside a larger text), or null; checks its literal. */
function read(r: OllamaTextLineReader, data: string, inPlace = false): string | null {
  const before = '{"x":1}\n';
  const ok = inPlace ? r.read(`${before}${data}\n{"y":"z"}\n`, before.length, before.length + data.length) : r.read(data, 0, data.length);
  if (!ok) return null;
  // The literal, when given, is exactly what an encoder would have written for the text.
  if (r.literal !== undefined) assert.equal(r.literal, JSON.stringify(r.text), data);
  return r.text;
}

describe('ollama text-line fast path', () => {
  it('reads plain and escaped text, created_at changing from line to line', () => {
    const r = new OllamaTextLineReader();
    assert.equal(read(r, line('"Hello"')), 'Hello');
    assert.equal(r.literal, '"Hello"');
    assert.equal(read(r, line('" wörld ☀️"', '"2025-05-01T10:00:00.2Z"'), true), ' wörld ☀️');
    assert.equal(read(r, line('"a\\"b\\n\\u00e9 \\u003c/b\\u003e"', '"2024-07-22T20:29:35.473452-07:00"')), 'a"b\né </b>');
    assert.equal(r.literal, undefined, 'escapes are not passed on as written');
    // Another model name: the head is checked again, not taken as known.
    assert.equal(read(r, line('"x"').replace('llama3.2', 'qwen3:0.6b'), true), 'x');
    assert.equal(read(r, line('"y"')), 'y');
  });

  it('leaves every other line to the full decoder', () => {
    const r = new OllamaTextLineReader();
    assert.equal(read(r, line('"warm"')), 'warm');
    for (const data of [
      line('""'), // empty content
      line('""', undefined, ',"thinking":"hmm"},"done":false}'),
      line('"x"', undefined, ',"thinking":"hmm"},"done":false}'),
      line('"x"', undefined, ',"tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}'),
      line('"x"', undefined, ',"images":null},"done":false}'),
      line('"x"', undefined, '},"done":true}'),
      line('"x"', undefined, '},"done_reason":"stop","done":true,"eval_count":3}'),
      line('"x"', undefined, '},"done":false,"done":true}'),
      line('"x"', undefined, '},"done":false,"message":{"role":"assistant","content":"y"}}'),
      line('"x"', undefined, '},"done":false,"error":"boom"}'),
      line('"x"', undefined, '},"done":false} '),
      line('"x"', undefined, '}, "done":false}'),
      line('"x"', undefined, '},"done":false'),
      line('"x"', '"2025-05-01T10:00:00\\"Z"'),
      line('"x"', '"2025-05-01T10:00:00\tZ"'),
      line('"x"', '1746093600'),
      line('"x"', 'null'),
      line('"bad \\q escape"'),
      line('"raw \t tab"'),
      line('"unclosed'),
      line('"x"').replace('"llama3.2"', '"llama\\"3"'),
      line('"x"').replace('"llama3.2"', '"llama3.2","model":"other"'),
      line('"x"').replace('"role":"assistant"', '"role":"user"'),
      line('"x"').replace('{"model"', '{"error":"boom","model"'),
      line('"x"').replace('{"model"', '{ "model"'),
      `{"created_at":"2025-05-01T10:00:00Z","model":"llama3.2","message":{"role":"assistant","content":"x"},"done":false}`,
    ]) {
      assert.equal(read(r, data), null, data);
      assert.equal(read(r, data, true), null, data);
    }
  });

  it('does not read past the end of its line', () => {
    const r = new OllamaTextLineReader();
    const ok = line('"x"');
    assert.equal(read(r, ok), 'x');
    const open = `${HEAD}"2025-05-01T10:00:00Z","message":{"role":"assistant","content":`;
    // A string left open at the line feed, or an escaped line feed, and a good line after it.
    for (const data of [`${open}"x\\`, `${open}"x`, `${HEAD}"2025`, `${HEAD}"2025\\`]) {
      const text = `${data}\n${ok}\n`;
      assert.equal(r.read(text, 0, data.length), false, data);
      assert.equal(r.read(`${data}\r\n${ok}\r\n`, 0, data.length), false, data);
    }
  });

  it('never reads a random variant differently from JSON.parse', () => {
    const rand = lcgRandom(20250501);
    const pieces = ['a', ' ', 'é', '☀️', '\\"', '\\\\', '\\n', '\\u00e9', '\\u003c', '\\ud83d', '"', '\\', '\t', '\\x', '}', ',"', '\\/'];
    const stamps = ['"2025-05-01T10:00:00.123456Z"', '"2024-07-22T20:29:35.473452-07:00"', '"x"', '""', '"a\\"b"', '"\t"', '1', 'null', '"2025'];
    const tails = [
      '},"done":false}',
      '},"done":true}',
      '},"done":false,"done":true}',
      '},"done":false} ',
      '},"done":false',
      ',"thinking":"t"},"done":false}',
      ',"tool_calls":[{"function":{"name":"f","arguments":{}}}]},"done":false}',
      ',"tool_calls":[]},"done":false}',
      ',"content":"dup"},"done":false}',
      '},"done":false,"error":"e"}',
      '},"done":false}}',
    ];
    const heads = [
      HEAD,
      HEAD,
      HEAD,
      '{"model":"m","created_at":',
      '{"model":"a\\"b","created_at":',
      '{"model":1,"created_at":',
      '{"model":"m","model":"n","created_at":',
    ];
    const messages = [
      ',"message":{"role":"assistant","content":',
      ',"message":{"role":"assistant","content":',
      ',"message":{"content":',
      ',"message":{"role":"assistant","role":"x","content":',
    ];
    const r = new OllamaTextLineReader();
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      let lit = '"';
      for (let k = rand(6); k > 0; k--) lit += pieces[rand(pieces.length)];
      if (rand(10) > 0) lit += '"';
      const stamp = rand(4) === 0 ? stamps[rand(stamps.length)]! : stamps[0]!;
      const tail = rand(3) === 0 ? tails[rand(tails.length)]! : tails[0]!;
      const data = `${heads[rand(heads.length)]}${stamp}${messages[rand(messages.length)]}${lit}${tail}`;
      const got = read(r, data, i % 2 === 0);
      if (got !== null) {
        fast++;
        assert.equal(got, slowRead(data), data);
      }
    }
    assert.ok(fast > 1000, `the fast path took ${fast} of the variants`);
  });
});
