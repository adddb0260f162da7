// The Responses delta fast path reads an event only when the full decoder would take the same
// kind, output_index, content_index and delta from it and nothing else: checked on known
// shapes and on seeded random variants against JSON.parse, through one reader so that layouts
// learned from earlier events meet changed ones (the end-to-end byte comparison is
// test/integration/translation/fast-path-identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ResponsesDeltaLayouts, ResponsesDeltaReader } from '../../../../src/shared/protocols/responses/stream-fast-path.js';
import { responsesCodec } from '../../../../src/shared/protocols/responses/codec.js';
import { translateFastPath } from '../../../../src/shared/protocols/fast-path/switch.js';
import { STREAM } from './fixtures.js';
import { parseOrSkip } from '../parse-or-skip.js';

interface Delta {
  text: boolean;
  outputIndex: number;
  contentIndex: number;
  value: string;
}

const numberOr = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** What the full decoder takes from the event when it is a text or arguments delta it acts on, else null. */
function slowRead(data: string): Delta | null {
  const ev = parseOrSkip(data) as Record<string, unknown> | undefined;
  if (ev === undefined) return null;
  if (typeof ev !== 'object' || ev === null || Array.isArray(ev)) return null;
  const text = ev.type === 'response.output_text.delta';
  if (!text && ev.type !== 'response.function_call_arguments.delta') return null;
  if (typeof ev.delta !== 'string' || ev.delta === '') return null;
  return { text, outputIndex: numberOr(ev.output_index), contentIndex: numberOr(ev.content_index), value: ev.delta };
}

/** The reader's delta for `data` (alone, or in place inside a larger text), or null; checks its literal. */
function read(r: ResponsesDeltaReader, data: string, inPlace = false): Delta | null {
  const before = 'event: response.created\ndata: {"x":1}\n\nevent: response.output_text.delta\ndata: ';
  const ok = inPlace
    ? r.read(`${before}${data}\n\ndata: {"type":"response.output_text.delta","delta":"next"}\n\n`, before.length, before.length + data.length)
    : r.read(data, 0, data.length);
  if (!ok) return null;
  // The literal, when given, is exactly what an encoder would have written for the delta.
  if (r.literal !== undefined) assert.equal(r.literal, JSON.stringify(r.value), data);
  return { text: r.text, outputIndex: r.outputIndex, contentIndex: r.contentIndex, value: r.value };
}

/** A text delta as api.openai.com writes it. */
const textDelta = (seq: number, lit: string, obfuscation = 'k3Jd9', outputIndex = 1): string =>
  `{"type":"response.output_text.delta","sequence_number":${seq},"item_id":"msg_68af4033b2","output_index":${outputIndex},"content_index":0,"delta":${lit},"logprobs":[],"obfuscation":"${obfuscation}"}`;
/** An arguments delta as api.openai.com writes it. */
const argsDelta = (seq: number, lit: string, obfuscation = 'x'): string =>
  `{"type":"response.function_call_arguments.delta","sequence_number":${seq},"item_id":"fc_68af4034c3","output_index":2,"delta":${lit},"obfuscation":"${obfuscation}"}`;
/** A text delta as the mock writes it. */
const mockDelta = (seq: number, lit: string): string =>
  `{"type":"response.output_text.delta","sequence_number":${seq},"item_id":"msg_mock_1","output_index":0,"content_index":0,"delta":${lit},"logprobs":[]}`;

describe('responses delta fast path', () => {
  it('reads vendor and mock text deltas, and arguments deltas, as JSON.parse does', () => {
    const r = new ResponsesDeltaReader();
    assert.deepEqual(read(r, textDelta(6, '"Checking "')), { text: true, outputIndex: 1, contentIndex: 0, value: 'Checking ' });
    assert.equal(r.literal, '"Checking "');
    // The next event of the item: another sequence number, delta and obfuscation, same layout.
    assert.deepEqual(read(r, textDelta(7, '"Paris. ☀️ wörld"', 'Qz'), true), { text: true, outputIndex: 1, contentIndex: 0, value: 'Paris. ☀️ wörld' });
    assert.deepEqual(read(r, textDelta(123456, '"a\\"b\\n\\u00e9"')), { text: true, outputIndex: 1, contentIndex: 0, value: 'a"b\né' });
    assert.equal(r.literal, undefined, 'escapes are not passed on as written');
    assert.deepEqual(read(r, argsDelta(12, '"{\\"city\\":"')), { text: false, outputIndex: 2, contentIndex: 0, value: '{"city":' });
    assert.deepEqual(read(r, argsDelta(13, '"Paris"', 'yy'), true), { text: false, outputIndex: 2, contentIndex: 0, value: 'Paris' });
    assert.equal(r.literal, '"Paris"');
    assert.deepEqual(read(r, mockDelta(0, '" quick"')), { text: true, outputIndex: 0, contentIndex: 0, value: ' quick' });
    assert.deepEqual(read(r, mockDelta(10, '" fox"'), true), { text: true, outputIndex: 0, contentIndex: 0, value: ' fox' });
    // Other orders and fewer members (absent indexes are 0 to the decoder too).
    assert.deepEqual(read(r, '{"delta":"x","type":"response.output_text.delta","content_index":3,"output_index":2}'), {
      text: true,
      outputIndex: 2,
      contentIndex: 3,
      value: 'x',
    });
    assert.deepEqual(read(r, '{"type":"response.output_text.delta","delta":"y"}'), { text: true, outputIndex: 0, contentIndex: 0, value: 'y' });
  });

  it("keeps a lane's layouts across its streams: another item id is read by the same layout", () => {
    const layouts = new ResponsesDeltaLayouts();
    const first = new ResponsesDeltaReader(layouts);
    assert.deepEqual(read(first, textDelta(4, '"one"')), { text: true, outputIndex: 1, contentIndex: 0, value: 'one' });
    const learnt = layouts.text;
    assert.notEqual(learnt, null);
    // The next stream: its own item id, sequence numbers and obfuscation.
    const second = new ResponsesDeltaReader(layouts);
    const otherItem = textDelta(9, '"two"', 'Zz').replace('msg_68af4033b2', 'msg_0123456789abcdef');
    assert.deepEqual(read(second, otherItem, true), { text: true, outputIndex: 1, contentIndex: 0, value: 'two' });
    assert.equal(layouts.text, learnt, 'read by the layout the first stream learnt');
    // An item id that is not a plain string is still the full decoder's.
    assert.equal(read(second, textDelta(10, '"x"').replace('"msg_68af4033b2"', '"msg_\\u0031"')), null);
  });

  it('finds where a layout delta event ends in the upstream text, from its event line, and reads it there', () => {
    const layouts = new ResponsesDeltaLayouts();
    read(new ResponsesDeltaReader(layouts), textDelta(1, '"one"'));
    read(new ResponsesDeltaReader(layouts), argsDelta(2, '"{"'));
    const r = new ResponsesDeltaReader(layouts);
    const events = [
      [`event: response.output_text.delta\ndata: ${textDelta(3, '"two"')}`, 'two', true],
      [`event: response.output_text.delta\ndata: ${textDelta(4, '"a\\"b"')}`, 'a"b', true],
      [`event: response.function_call_arguments.delta\ndata: ${argsDelta(5, '"{\\"x\\":1}"')}`, '{"x":1}', false],
    ] as const;
    const text = events.map(([e]) => `${e}\n\n`).join('') + 'event: response.output_text.done\ndata: {}\n\n';
    let at = 0;
    for (const [event, value, isText] of events) {
      assert.equal(r.lineEnd(text, at), at + event.length, event);
      assert.equal(r.value, value);
      assert.equal(r.text, isText);
      at += event.length + 2;
    }
    assert.equal(r.lineEnd(text, at), -1, 'a done event');
    // The data alone (no event line), or another event name: not this reader's.
    assert.equal(r.lineEnd(`data: ${textDelta(6, '"x"')}\n\n`, 0), -1);
    assert.equal(r.lineEnd(`event: other\ndata: ${textDelta(6, '"x"')}\n\n`, 0), -1);
  });

  it('leaves an event longer than a pattern may match to the full decoder, without throwing', () => {
    const r = new ResponsesDeltaReader();
    read(r, textDelta(1, '"warm"'));
    const huge = textDelta(2, JSON.stringify('ab\n'.repeat(20_000_000 / 3)));
    assert.equal(read(r, huge), null);
    assert.deepEqual(read(r, textDelta(3, JSON.stringify('ab\n'.repeat(1000)))), { text: true, outputIndex: 1, contentIndex: 0, value: 'ab\n'.repeat(1000) });
  });

  it('leaves every other event to the full decoder', () => {
    const r = new ResponsesDeltaReader();
    read(r, textDelta(1, '"warm"')); // a learned layout, so the refusals below are compared with it too
    for (const data of [
      textDelta(2, '""'), // empty delta: the full decoder does nothing
      textDelta(2, '"bad \\q escape"'),
      textDelta(2, '"raw \t tab"'),
      textDelta(2, '"unclosed'),
      textDelta(2, '"x"', 'a\\u0062'),
      textDelta(2, '"x"', 'a', 1234567890), // past the plain range
      textDelta(2, '"x"').replace('"output_index":1', '"output_index":01'),
      textDelta(2, '"x"').replace('"output_index":1', '"output_index":1.0'),
      textDelta(2, '"x"').replace('"output_index":1', '"output_index":-1'),
      textDelta(2, '"x"').replace('"output_index":1', '"output_index":"1"'),
      textDelta(2, '"x"').replace('"sequence_number":2', '"sequence_number":02'),
      textDelta(2, '"x"').replace('"sequence_number":2', '"sequence_number":2e0'),
      textDelta(2, '"x"').replace('"logprobs":[]', '"logprobs":[{"token":"x","logprob":-0.1}]'),
      textDelta(2, '"x"').replace('"item_id":"msg_68af4033b2"', '"item_id":"msg_\\u0031"'),
      textDelta(2, '"x"').replace('"content_index":0', '"content_index":0,"content_index":1'),
      textDelta(2, '"x"').replace('"delta":"x"', '"delta":"x","delta":"y"'),
      textDelta(2, '"x"').replace('"delta"', '"delt\\u0061"'),
      textDelta(2, '"x"').replace('"type":"response.output_text.delta"', '"type":"response.refusal.delta"'),
      textDelta(2, '"x"').replace('"type":"response.output_text.delta"', '"type":"response.output_text.done"'),
      textDelta(2, '"x"').replace('{', '{"response":{"id":"r"},'),
      textDelta(2, '"x"').replace('{', '{"extra":1,'),
      textDelta(2, '"x"').replace(',', ', '),
      textDelta(2, '"x"').replace(/}$/, '} '),
      textDelta(2, '"x"').replace(/}$/, '}}'),
      textDelta(2, '"x"').replace(/}$/, ',}'),
      textDelta(2, '"x"').replace(/}$/, ''),
      '{"type":"response.output_text.delta","sequence_number":3}',
      '{"delta":"x"}',
      '"response.output_text.delta"',
      '{"type":"response.created","sequence_number":0,"response":{"id":"r","model":"m"}}',
    ]) {
      assert.equal(read(r, data), null, data);
      assert.equal(read(r, data, true), null, data);
    }
  });

  it("is what the decoder reads a vendor stream's deltas with, whole or one event per chunk", { skip: !translateFastPath }, () => {
    const frames = STREAM.split(/(?<=\n\n)/);
    for (const chunks of [[STREAM], frames]) {
      const dec = responsesCodec.createStreamDecoder();
      const events = [...chunks.flatMap((c) => dec.push(new TextEncoder().encode(c))), ...dec.finish()];
      // A literal is set only by the fast path; the arguments deltas hold escapes, so none there.
      assert.deepEqual(
        events.filter((e) => e.type === 'text_delta' || e.type === 'tool_args_delta').map((e) => [e.type, e.literal]),
        [
          ['text_delta', '"Checking "'],
          ['text_delta', '"Paris."'],
          ['tool_args_delta', undefined],
          ['tool_args_delta', undefined],
        ],
      );
    }
  });

  it('never reads a random variant differently from JSON.parse', () => {
    let seed = 20250828;
    // The high bits of the generator: its low bits repeat with short periods.
    const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
    const pieces = ['a', ' ', 'é', '☀️', '世界', '\\"', '\\\\', '\\/', '\\n', '\\u00e9', '\\ud83d', '\\ude00', '"', '\\', '\t', '\\x', '\\u12', '}', ',"'];
    // Values per member: mostly the plain ones a vendor writes, sometimes one a strict reader must refuse.
    const values: Record<string, readonly string[]> = {
      type: [
        '"response.output_text.delta"',
        '"response.function_call_arguments.delta"',
        '"response.refusal.delta"',
        '"response.output_text.done"',
        '"response.output_text.delt\\u0061"',
        '"response.output_text.delta "',
        'null',
      ],
      sequence_number: ['0', '7', '42', '123456789012', '01', '-1', '1.5', '1e3', '"3"', 'null', ''],
      item_id: ['"msg_1"', '"msg_68af4033b2"', '"fc_1"', '"m\\"x"', '"m\\u0031"', '1', '""', '"a\tb"'],
      output_index: ['0', '1', '2', '17', '123456789', '1234567890', '00', '-0', '1.0', '1e0', '"1"', 'null', 'true'],
      content_index: ['0', '1', '9', '01', '-1', '2.5', '"0"', 'null'],
      logprobs: ['[]', '[ ]', 'null', '[{}]', '[]]', '{}'],
      obfuscation: ['"k3Jd9"', '"Qz"', '""', '"x\\u0079"', '"a\\"b"', '7', '"unclosed'],
      response: ['{"id":"r"}', 'null'],
      extra: ['1', '"x"'],
    };
    const plain: Record<string, number> = {
      type: 2,
      sequence_number: 3,
      item_id: 3,
      output_index: 5,
      content_index: 3,
      logprobs: 1,
      obfuscation: 3,
      response: 0,
      extra: 0,
    };
    const orders = [
      ['type', 'sequence_number', 'item_id', 'output_index', 'content_index', 'delta', 'logprobs', 'obfuscation'],
      ['type', 'sequence_number', 'item_id', 'output_index', 'content_index', 'delta', 'logprobs'],
      ['type', 'item_id', 'output_index', 'content_index', 'delta', 'logprobs', 'obfuscation', 'sequence_number'],
      ['type', 'sequence_number', 'item_id', 'output_index', 'delta', 'obfuscation'],
      ['delta', 'type', 'output_index'],
      ['type', 'output_index', 'content_index', 'delta'],
    ];
    const variable = new Set(['sequence_number', 'delta', 'obfuscation']);
    const r = new ResponsesDeltaReader();
    let base: Record<string, string> = {};
    let order = orders[0]!;
    let fast = 0;
    for (let i = 0; i < 30_000; i++) {
      // A new item now and then; in between, events of the same item (same fixed members) with
      // new variable values, sometimes one fixed member changed or broken.
      if (i % 40 === 0) {
        order = pick(orders);
        base = {};
        for (const key of order) if (key !== 'delta') base[key] = values[key]![rand(plain[key]!)]!;
      }
      const members: Record<string, string> = { ...base };
      for (const key of order) {
        if (key === 'delta') {
          let lit = '"';
          for (let k = rand(6); k > 0; k--) lit += pick(pieces);
          if (rand(12) > 0) lit += '"';
          members.delta = lit;
        } else if (variable.has(key)) members[key] = rand(8) === 0 ? pick(values[key]!) : values[key]![rand(plain[key]!)]!;
      }
      const keys = [...order];
      const mutation = rand(10);
      if (mutation === 0) {
        const key = pick(keys.filter((k) => k !== 'delta'));
        if (key !== undefined) members[key] = pick(values[key]!);
      } else if (mutation === 1) {
        keys.splice(rand(keys.length + 1), 0, pick(['response', 'extra', ...order]));
      } else if (mutation === 2) {
        keys.splice(rand(keys.length), 1);
      }
      let data = `{${keys.map((k) => `"${k}":${members[k] ?? values[k]?.[0] ?? '"x"'}`).join(',')}}`;
      const ending = rand(30);
      if (ending === 0) data = data.replace(',"', ', "');
      else if (ending === 1) data = data.replace('":', '": ');
      else if (ending === 2) data += ' ';
      else if (ending === 3) data = data.slice(0, -1);
      const got = read(r, data, i % 2 === 0);
      if (got !== null) {
        fast++;
        assert.deepEqual(got, slowRead(data), data);
      }
    }
    assert.ok(fast > 5000, `the fast path took ${fast} of the variants`);
  });
});
