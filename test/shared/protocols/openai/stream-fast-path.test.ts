// The text-delta fast path reads a chunk only when the full decoder would read the same text
// from it and nothing else: checked on known shapes and on seeded random variants against
// JSON.parse (the end-to-end byte comparison is test/integration/translation/fast-path-identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ChatTextDeltaReader, type ChatDeltaLayouts } from '../../../../src/shared/protocols/openai/stream-fast-path.js';
import { parseOrSkip } from '../parse-or-skip.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

const HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1795461656,"model":"gpt-4o","system_fingerprint":"fp_1",';
const chunk = (lit: string, tail = ',"logprobs":null,"finish_reason":null}]}'): string => `${HEAD}"choices":[{"index":0,"delta":{"content":${lit}}${tail}`;

/** What the full decoder takes from the chunk when it is a plain text delta, else null. */
function slowRead(data: string): string | null {
  const obj = parseOrSkip(data) as Record<string, unknown> | undefined;
  if (obj === undefined) return null;
  if (obj.usage !== undefined && obj.usage !== null) return null;
  if (obj.error !== undefined && obj.error !== null) return null;
  const choices = obj.choices as Record<string, unknown>[];
  if (!Array.isArray(choices) || choices.length !== 1) return null;
  const delta = choices[0]!.delta as Record<string, unknown>;
  if (choices[0]!.finish_reason !== null || Object.keys(delta).join() !== 'content') return null;
  return typeof delta.content === 'string' && delta.content !== '' ? delta.content : null;
}

/** The reader's text for `data` (alone, or in place inside a larger text), or null; checks its literal. */
function read(r: ChatTextDeltaReader, data: string, inPlace = false): string | null {
  const before = 'data: {"x":1}\n\ndata: ';
  const ok = inPlace ? r.read(`${before}${data}\n\n`, before.length, before.length + data.length) : r.read(data, 0, data.length);
  if (!ok) return null;
  // The literal, when given, is exactly what an encoder would have written for the text.
  if (r.literal !== undefined) assert.equal(r.literal, JSON.stringify(r.text), data);
  return r.text;
}

for (const [title, lane] of [
  ['', false],
  [', by a lane layout', true],
] as const) {
  describe(`openai text-delta fast path${title}`, () => {
    /** A reader of one stream; with a lane, its layout is learnt from the first chunk read. */
    const reader = (): ChatTextDeltaReader => new ChatTextDeltaReader(lane ? { text: null } : null);

    it('reads plain and escaped text, with the mock and vendor chunk endings', () => {
      const r = reader();
      assert.equal(read(r, chunk('"Hello"')), 'Hello');
      assert.equal(r.literal, '"Hello"');
      assert.equal(read(r, chunk('" wörld ☀️"'), true), ' wörld ☀️');
      assert.equal(read(r, chunk('"a\\"b\\n\\u00e9"')), 'a"b\né');
      assert.equal(r.literal, undefined, 'escapes are not passed on as written');
      assert.equal(read(r, chunk('"x"', ',"finish_reason":null}]}')), 'x');
      assert.equal(read(r, chunk('"x"', ',"finish_reason":null}],"usage":null}'), true), 'x');
    });

    it('leaves every other chunk to the full decoder', () => {
      const r = reader();
      for (const data of [
        chunk('""'), // empty delta
        chunk('"x"', ',"logprobs":null,"finish_reason":"stop"}]}'),
        chunk('"x"', ',"finish_reason":null}],"usage":{"prompt_tokens":1,"completion_tokens":1}}'),
        chunk('"x"', ',"finish_reason":null},{"index":1,"delta":{"content":"y"},"finish_reason":null}]}'),
        chunk('"bad \\q escape"'),
        chunk('"raw \t tab"'),
        chunk('"unclosed'),
        `{"error":{"message":"x"},${chunk('"x"').slice(1)}`,
        `{"usage":null,${chunk('"x"').slice(1)}`,
        `{"id":"a\\"b",${chunk('"x"').slice(1)}`,
        `{"created":01,${chunk('"x"').slice(1)}`,
        chunk('"x"') + ' ',
      ]) {
        assert.equal(read(r, data), null, data);
        assert.equal(read(r, data, true), null, data);
      }
    });

    it('never reads a random variant differently from JSON.parse', () => {
      const rand = lcgRandom(12345);
      const pieces = ['a', ' ', 'é', '☀️', '\\"', '\\\\', '\\n', '\\u00e9', '\\ud83d', '"', '\\', '\t', '\\x', '}', ',"'];
      const tails = [
        ',"logprobs":null,"finish_reason":null}]}',
        ',"finish_reason":null}]}',
        ',"finish_reason":"stop"}]}',
        ',"finish_reason":null}],"usage":null}',
        ',"finish_reason":null}]',
        '}]}',
      ];
      const r = reader();
      let fast = 0;
      for (let i = 0; i < 20_000; i++) {
        let lit = '"';
        for (let k = rand(6); k > 0; k--) lit += pieces[rand(pieces.length)];
        if (rand(10) > 0) lit += '"';
        const head = rand(8) === 0 ? HEAD.replace('"created":1795461656', `"created":${rand(3) === 0 ? '"x"' : rand(100)}`) : HEAD;
        const data = `${head}"choices":[{"index":0,"delta":{"content":${lit}}${tails[rand(tails.length)]}`;
        const got = read(r, data, i % 2 === 0);
        if (got !== null) {
          fast++;
          assert.equal(got, slowRead(data), data);
        }
      }
      assert.ok(fast > 1000, `the fast path took ${fast} of the variants`);
    });
  });
}

describe('openai text-delta lane layout', () => {
  it('reads the next streams of the lane, whatever their id and created, and learns again, ever more rarely, when a stream differs', () => {
    const layouts: ChatDeltaLayouts = { text: null };
    const stream = (id: string, created: number, fingerprint = 'fp_1'): string =>
      HEAD.replace('chatcmpl-1', id).replace('1795461656', String(created)).replace('fp_1', fingerprint);
    const first = new ChatTextDeltaReader(layouts);
    const data = (head: string, lit: string): string => `${head}"choices":[{"index":0,"delta":{"content":${lit}},"logprobs":null,"finish_reason":null}]}`;
    const one = data(stream('chatcmpl-a', 1), '"one"');
    assert.equal(first.read(one, 0, one.length), true);
    const layout = layouts.text;
    assert.notEqual(layout, null);
    // Another stream of the lane: read by the same layout, its members kept for its finish.
    const second = new ChatTextDeltaReader(layouts);
    const two = data(stream('chatcmpl-bb', 1795461999), '"two \\"q\\""');
    assert.equal(second.read(two, 0, two.length), true);
    assert.equal(second.text, 'two "q"');
    assert.equal(layouts.text, layout);
    const finish = `${stream('chatcmpl-bb', 1795461999)}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}`;
    assert.equal(second.readFinish(finish, 0, finish.length), 'stop');
    // Streams with another fingerprint, each followed by one with the first: all read (by
    // their own head where the layout misses); of the six misses, the 1st, 2nd and 4th teach
    // the lane a layout.
    const seen: unknown[] = [];
    for (let i = 1; i <= 4; i++) {
      const r = new ChatTextDeltaReader(layouts);
      const other = data(stream(`id${i}`, i, 'fp_2'), '"x"');
      assert.equal(r.read(other, 0, other.length), true);
      assert.equal(r.text, 'x');
      seen.push(layouts.text);
      // and back to the first fingerprint, read by its head after the lane learnt the other
      const back = data(stream(`back${i}`, i), '"y"');
      assert.equal(new ChatTextDeltaReader(layouts).read(back, 0, back.length), true);
      seen.push(layouts.text);
    }
    assert.equal(new Set(seen).size, 3);
  });
  it('finds where a layout text delta ends in the upstream text, without its line end, and reads it there', () => {
    const layouts: ChatDeltaLayouts = { text: null };
    const learn = new ChatTextDeltaReader(layouts);
    const first = chunk('"one"');
    assert.equal(learn.read(first, 0, first.length), true);
    const r = new ChatTextDeltaReader(layouts);
    const deltas = [chunk('"two"'), chunk('"a\\"b"'), chunk('" wörld ☀️"')];
    const finish = `${HEAD}"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}`;
    const text = [...deltas, finish].map((d) => `data: ${d}\n\n`).join('');
    let at = 0;
    for (const [i, d] of deltas.entries()) {
      const start = at + 6;
      assert.equal(r.lineEnd(text, start), start + d.length, `delta ${i}`);
      assert.equal(r.readMatched(text, start, start + d.length), true);
      assert.equal(r.text, ['two', 'a"b', ' wörld ☀️'][i]);
      assert.equal(r.literal, i === 1 ? undefined : JSON.stringify(r.text));
      at = start + d.length + 2;
    }
    // The finish chunk: no layout match; read() then leaves it (without a second match), and the finish path reads it.
    assert.equal(r.lineEnd(text, at + 6), -1);
    assert.equal(r.read(text, at + 6, at + 6 + finish.length), false);
    assert.equal(r.readFinish(text, at + 6, at + 6 + finish.length), 'stop');
    // A lane with no layout yet finds nothing.
    assert.equal(new ChatTextDeltaReader({ text: null }).lineEnd(text, 6), -1);
  });
});

describe('openai finishing and usage-only chunk fast paths', () => {
  const finishing = (choice: string, tail = '}'): string => `${HEAD}"choices":[{"index":0,"delta":{}${choice}]${tail}`;
  /** A reader that has seen a text chunk of the stream (the members to compare with). */
  const primed = (): ChatTextDeltaReader => {
    const r = new ChatTextDeltaReader();
    assert.equal(read(r, chunk('"x"')), 'x');
    return r;
  };
  const finishOf = (r: ChatTextDeltaReader, data: string): string | null => r.readFinish(data, 0, data.length);
  const usageOf = (r: ChatTextDeltaReader, data: string): string | null => r.readUsageOnly(data, 0, data.length);

  it('reads the finish reason with the vendor and mock endings, only after a text chunk', () => {
    assert.equal(finishOf(new ChatTextDeltaReader(), finishing(',"logprobs":null,"finish_reason":"stop"}')), null, 'no members seen yet');
    const r = primed();
    assert.equal(finishOf(r, finishing(',"logprobs":null,"finish_reason":"stop"}')), 'stop');
    assert.equal(finishOf(r, finishing(',"finish_reason":"length"}', ',"usage":null}')), 'length');
    assert.equal(finishOf(r, finishing(',"finish_reason":"tool_calls","logprobs":null}')), 'tool_calls');
    const before = 'data: [DONE]\n\ndata: ';
    const data = finishing(',"finish_reason":"stop"}');
    assert.equal(r.readFinish(`${before}${data}\n\n`, before.length, before.length + data.length), 'stop', 'in place');
    for (const bad of [
      finishing(',"finish_reason":null}'),
      finishing(',"finish_reason":"st\\u006fp"}'),
      finishing(',"logprobs":null,"finish_reason":"stop","logprobs":null}'),
      finishing(',"finish_reason":"stop"}', ',"usage":{"prompt_tokens":1}}'),
      finishing(',"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"stop"}'),
      finishing(',"finish_reason":"stop","extra":1}'),
      finishing(',"finish_reason":"stop"}', '} '),
      `${HEAD}"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}`,
    ])
      assert.equal(finishOf(r, bad), null, bad);
  });

  it('finds the usage value of the usage-only chunk; JSON.parse of it proves the rest', () => {
    const r = primed();
    assert.equal(usageOf(r, `${HEAD}"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4}}`), '{"prompt_tokens":9,"completion_tokens":4}');
    assert.equal(usageOf(r, `${HEAD}"choices":[{"index":0}],"usage":{"prompt_tokens":9}}`), null);
    // What comes back is only offered: the caller's JSON.parse refuses a value left open or
    // with more after it (and the full decoder then reads the chunk).
    assert.throws(() => JSON.parse(usageOf(r, `${HEAD}"choices":[],"usage":{"prompt_tokens":9}`)!));
    assert.throws(() => JSON.parse(usageOf(r, `${HEAD}"choices":[],"usage":{"a":1},"error":{"b":2}}`)!));
  });

  it('never reads a random finishing chunk differently from JSON.parse', () => {
    const rand = lcgRandom(777);
    const reasons = ['"stop"', '"length"', '"tool_calls"', 'null', '"st\\"op"', '"x\\u0041"', '1', '"a b"', '""', '"stop'];
    const around = ['', '', ',"logprobs":null', ',"logprobs":{}', ',"x":1', ',"finish_reason":"length"'];
    const closes = ['}]', '}]', '}', ']', '}],{"index":1}]', ' }]'];
    const tails = ['}', ',"usage":null}', ',"usage":{}}', ',"usage":null,"usage":{"a":1}}', '} ', '', ',"error":null}'];
    const r = primed();
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
      const data = `${HEAD}"choices":[{"index":0,"delta":{}${pick(around)},"finish_reason":${pick(reasons)}${pick(around)}${pick(closes)}${pick(tails)}`;
      const got = finishOf(r, data);
      if (got === null) continue;
      fast++;
      const obj = JSON.parse(data) as Record<string, unknown>;
      assert.ok(obj.error === undefined, data);
      const choices = obj.choices as Record<string, unknown>[];
      assert.equal(choices.length, 1, data);
      assert.deepEqual(choices[0]!.delta, {}, data);
      assert.equal(choices[0]!.index, 0, data);
      assert.equal(choices[0]!.finish_reason, got, data);
      assert.ok(obj.usage === undefined || obj.usage === null, data);
      assert.deepEqual(
        Object.keys(choices[0]!)
          .filter((k) => k !== 'logprobs' || choices[0]![k] !== null)
          .sort(),
        ['delta', 'finish_reason', 'index'],
        data,
      );
    }
    assert.ok(fast > 200, `the fast path took ${fast} of the variants`);
  });
});
