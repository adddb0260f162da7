// The contentBlockDelta fast path reads a frame only when the full decoder would read the same
// block index and text (or tool input) from it: checked on known shapes, on seeded random
// frames against the codec and JSON.parse, and on whole streams against the same frames spaced
// out so that the full decoder reads them (the end-to-end byte comparison is
// test/integration/translation/fast-path-identity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import { eventHeaderText, EventStreamReader, headerString } from '../../../../src/shared/protocols/bedrock/event-stream.js';
import { readBlockDelta, type BlockDelta } from '../../../../src/shared/protocols/bedrock/stream-fast-path.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { withoutLiterals } from '../../../helpers/stream-events.js';
import { awsCodec, concat, rawEventFrame } from './fixtures.js';
import { seededRandom } from '../../../helpers/seeded-random.js';

const DELTA_HEADERS = eventHeaderText('contentBlockDelta');
const utf8 = new TextDecoder();

type Read = Omit<BlockDelta, 'literal'>;

/** What the full decoder takes from the frame when it is a text or tool-input delta, else null. */
function slowRead(frame: Uint8Array): Read | null {
  const m = awsCodec.decode(frame);
  const messageType = headerString(m, ':message-type');
  if (messageType === 'exception' || messageType === 'error' || headerString(m, ':event-type') !== 'contentBlockDelta') return null;
  let p: any;
  try {
    p = JSON.parse(utf8.decode(m.body));
  } catch {
    return null;
  }
  if (!isObject(p) || typeof p.contentBlockIndex !== 'number' || !isObject(p.delta)) return null;
  const d = p.delta;
  if (typeof d.text === 'string') return { index: p.contentBlockIndex, text: true, value: d.text };
  if (isObject(d.toolUse) && typeof d.toolUse.input === 'string') return { index: p.contentBlockIndex, text: false, value: d.toolUse.input };
  return null;
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fast path's reading of `frame` as the reader offers it, or null; checks its literal. */
function fastRead(frame: Uint8Array): Read | null {
  const out: BlockDelta = { index: -1, text: false, value: '', literal: undefined };
  let read = false;
  const reader = new EventStreamReader(
    () => {},
    (text, headersLength) => (read = readBlockDelta(text, headersLength, out)),
  );
  reader.push(frame);
  if (!read) return null;
  // The literal, when given, is exactly what an encoder would have written for the value.
  if (out.literal !== undefined) assert.equal(out.literal, JSON.stringify(out.value));
  return { index: out.index, text: out.text, value: out.value };
}

/** readBlockDelta on a payload behind `headers` (the delta headers unless told), or null. */
function read(payload: string, headers = DELTA_HEADERS): BlockDelta | null {
  const out: BlockDelta = { index: -1, text: false, value: '', literal: undefined };
  return readBlockDelta(headers + payload, headers.length, out) ? out : null;
}

describe('bedrock contentBlockDelta fast path', () => {
  it('reads Bedrock, gateway and mock deltas, plain and escaped', () => {
    assert.deepEqual(read('{"contentBlockIndex":0,"delta":{"text":"Hello"},"p":"abcdefgh"}'), { index: 0, text: true, value: 'Hello', literal: '"Hello"' });
    assert.deepEqual(read('{"contentBlockIndex":12,"delta":{"text":"Météo à Paris ☀️"}}'), {
      index: 12,
      text: true,
      value: 'Météo à Paris ☀️',
      literal: '"Météo à Paris ☀️"',
    });
    assert.deepEqual(read('{"contentBlockIndex":2,"delta":{"toolUse":{"input":"{\\"city\\":"}},"p":"abc"}'), {
      index: 2,
      text: false,
      value: '{"city":',
      literal: undefined,
    });
    assert.deepEqual(read('{"contentBlockIndex":2,"delta":{"toolUse":{"input":" 1}"}},"p":""}'), { index: 2, text: false, value: ' 1}', literal: '" 1}"' });
    assert.deepEqual(read('{"delta":{"text":" quick"},"contentBlockIndex":0}'), { index: 0, text: true, value: ' quick', literal: '" quick"' });
    assert.deepEqual(read('{"delta":{"toolUse":{"input":"{\\"location\\""}},"contentBlockIndex":0}'), {
      index: 0,
      text: false,
      value: '{"location"',
      literal: undefined,
    });
    assert.deepEqual(read('{"delta":{"text":"a\\nb \\u00e9 \\ud83d\\ude00"},"contentBlockIndex":123456789}'), {
      index: 123456789,
      text: true,
      value: 'a\nb é 😀',
      literal: undefined,
    });
    // An empty text still opens its block: the decoder handles it as the full path does.
    assert.deepEqual(read('{"contentBlockIndex":0,"delta":{"text":""}}'), { index: 0, text: true, value: '', literal: '""' });
  });

  it('leaves every other frame to the full decoder', () => {
    for (const payload of [
      '{"contentBlockIndex":0,"delta":{"text":"a"},"p":"x","q":1}',
      '{"contentBlockIndex":0,"delta":{"text":"a"},"delta":{"text":"b"}}', // JSON.parse keeps the last
      '{"contentBlockIndex":0,"delta":{"text":"a"},"contentBlockIndex":1}',
      '{"contentBlockIndex":0,"delta":{"text":"a"},"p":"x","p":"y"}',
      '{"contentBlockIndex":0,"p":"x","delta":{"text":"a"}}',
      '{"delta":{"text":"a"},"contentBlockIndex":0,"p":"x"}',
      '{"contentBlockIndex":0,"delta":{"text":"a"},"p":"x\\"y"}',
      '{"contentBlockIndex":0,"delta":{"text":"a"},"p":"x\ty"}',
      '{"contentBlockIndex":0,"delta":{"text":"a"},"p":1}',
      '{"contentBlockIndex":01,"delta":{"text":"a"}}',
      '{"contentBlockIndex":-1,"delta":{"text":"a"}}',
      '{"contentBlockIndex":1.0,"delta":{"text":"a"}}',
      '{"contentBlockIndex":1e0,"delta":{"text":"a"}}',
      '{"contentBlockIndex":1234567890,"delta":{"text":"a"}}',
      '{"contentBlockIndex":"0","delta":{"text":"a"}}',
      '{"contentBlockIndex": 0,"delta":{"text":"a"}}',
      '{"contentBlockIndex":0,"delta":{"text":"a"}} ',
      '{"contentBlockIndex":0,"delta":{"text":"a"}}\n',
      '\ufeff{"contentBlockIndex":0,"delta":{"text":"a"}}',
      '{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"a"}}}',
      '{"contentBlockIndex":0,"delta":{"text":"a","citation":1}}',
      '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"a","x":1}}}',
      '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"a"}}',
      '{"contentBlockIndex":0,"delta":{"text":null}}',
      '{"contentBlockIndex":0,"delta":{"text":"bad \\q escape"}}',
      '{"contentBlockIndex":0,"delta":{"text":"raw \t tab"}}',
      '{"contentBlockIndex":0,"delta":{"text":"unclosed}}',
      '{"delta":{"text":"a"},"contentBlockIndex":0,"contentBlockIndex":1}',
      '{"delta":{"text":"a"},"delta":{"text":"b"},"contentBlockIndex":0}',
    ])
      assert.equal(read(payload), null, payload);
    const good = '{"contentBlockIndex":0,"delta":{"text":"a"}}';
    assert.equal(read(good, eventHeaderText('messageStart')), null, 'another event');
    const reordered = eventHeaderText('contentBlockDelta').replace(/^(.*?contentBlockDelta)(.*)$/s, '$2$1');
    assert.equal(reordered.length, DELTA_HEADERS.length);
    assert.equal(read(good, reordered), null, 'the same headers in another order');
  });

  it('never reads a random frame differently from the codec and JSON.parse', () => {
    const rand = seededRandom(20240607);
    const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
    /** Mostly one of the known spellings, one time in four anything else. */
    const either = <T>(known: readonly T[], other: readonly T[]): T => (rand(4) === 0 ? pick(other) : pick(known));
    const str = (value: string) => ({ type: 'string' as const, value });
    const deltaHeaders = [() => ({ ':event-type': str('contentBlockDelta'), ':content-type': str('application/json'), ':message-type': str('event') })];
    const otherHeaders = [
      () => ({ ':content-type': str('application/json'), ':event-type': str('contentBlockDelta'), ':message-type': str('event') }),
      () => ({ ':event-type': str('contentBlockStop'), ':content-type': str('application/json'), ':message-type': str('event') }),
      () => ({ ':event-type': str('contentBlockDelta'), ':content-type': str('application/json'), ':message-type': str('exception') }),
      () => ({ ':event-type': str('contentBlockDelta'), ':message-type': str('event') }),
    ];
    // Literal pieces: text and good escapes; bad escapes, raw controls and bytes that are not UTF-8.
    const textPieces: (string | number[])[] = ['a', ' ', 'é', '☀️', '\\"', '\\\\', '\\n', '\\u00e9', '\\ud83d\\ude00', '\u2028'];
    const otherPieces: (string | number[])[] = [
      '\\ud83d',
      '"',
      '\\',
      '\t',
      '\\x',
      '}',
      ',"',
      [0xff],
      [0xc3],
      [0xe2, 0x98],
      [0xed, 0xa0, 0x80],
      [0xef, 0xbb, 0xbf],
    ];
    const indexes = ['0', '3', '42', '123456789'];
    const otherIndexes = ['00', '-1', '1.5', '1e1', '', '1234567890', ' 1', '"1"'];
    const deltas = ['{"text":#}', '{"toolUse":{"input":#}}'];
    const otherDeltas = [
      '{"text":#,"x":1}',
      '{"toolUse":{"input":#,"x":1}}',
      '{"reasoningContent":{"text":#}}',
      '{"text":#}}',
      '{"toolUse":{"input":#}',
      '{ "text":#}',
      '{"text":#,"text":"x"}',
    ];
    const paddings = ['"abc"', '""', '"' + 'x'.repeat(60) + '"'];
    const otherPaddings = ['"a\\"b"', '"a\tb"', '1', '"abc', 'null'];
    const members = ['index', 'delta', 'p', 'extra'];
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      const parts: Uint8Array[] = [];
      const text = (s: string): void => void parts.push(Buffer.from(s));
      // A member list: mostly the known orders, sometimes shuffled, dropped or repeated.
      const order =
        rand(6) === 0
          ? Array.from({ length: 1 + rand(4) }, () => pick(members))
          : rand(2) === 0
            ? ['index', 'delta', ...(rand(2) === 0 ? ['p'] : [])]
            : ['delta', 'index'];
      if (rand(50) === 0) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
      text('{');
      order.forEach((member, k) => {
        if (k > 0) text(',');
        if (member === 'index') text(`"contentBlockIndex":${either(indexes, otherIndexes)}`);
        else if (member === 'p') text(`"p":${either(paddings, otherPaddings)}`);
        else if (member === 'extra') text('"role":"assistant"');
        else {
          const [before, after] = either(deltas, otherDeltas).split('#') as [string, string];
          text(`"delta":${before}`);
          text('"');
          for (let k2 = rand(6); k2 > 0; k2--) {
            const piece = either(textPieces, otherPieces);
            parts.push(typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece));
          }
          if (rand(10) > 0) text('"');
          text(after);
        }
      });
      text(rand(30) === 0 ? '} ' : '}');
      const frame = awsCodec.encode({ headers: either(deltaHeaders, otherHeaders)(), body: concat(parts) });
      const got = fastRead(frame);
      if (got !== null) {
        fast++;
        assert.deepEqual(got, slowRead(frame), Buffer.from(frame).toString('latin1'));
      }
    }
    assert.ok(fast > 2000, `the fast path took ${fast} of the frames`);
  });
});

describe('bedrock stream decoder with the fast path', () => {
  /** One converse-stream event as the vendor may write it. */
  type Ev = [eventType: string, payload: Record<string, unknown>];

  /** The frames of `events`, compact (as written, fast-path shapes) or spaced out (never fast). */
  function frames(events: Ev[], spaced: boolean, mockOrder: (i: number) => boolean): Uint8Array {
    return concat(
      events.map(([type, payload], i) => {
        if (spaced) return rawEventFrame(type, JSON.stringify(payload, null, 1));
        if (type !== 'contentBlockDelta' || !mockOrder(i)) return rawEventFrame(type, JSON.stringify(payload));
        const { contentBlockIndex, delta } = payload;
        return rawEventFrame(type, JSON.stringify({ delta, contentBlockIndex }));
      }),
    );
  }

  function decode(bytes: Uint8Array, cut: number): StreamEvent[] {
    const d = bedrockCodec.createStreamDecoder();
    return [...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut)), ...d.finish()];
  }

  it('gives the events the full decoder gives, whatever the blocks are in', () => {
    const rand = seededRandom(777);
    const texts = ['Hi', ' there', '', 'é ☀️', 'a "quoted" \\ line\n', '\u2028'];
    let literals = 0;
    for (let round = 0; round < 300; round++) {
      const events: Ev[] = [['messageStart', { role: 'assistant' }]];
      for (let n = 3 + rand(20); n > 0; n--) {
        const index = rand(4);
        const p = rand(2) === 0 ? {} : { p: 'abcdefghij'.slice(0, rand(10)) };
        switch (rand(6)) {
          case 0:
            events.push(['contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: `t${index}`, name: 'f' } }, ...p }]);
            break;
          case 1:
            events.push(['contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { text: 'hmm' } }, ...p }]);
            break;
          case 2:
            events.push(['contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: texts[rand(texts.length)] } }, ...p }]);
            break;
          case 3:
            events.push(['contentBlockStop', { contentBlockIndex: index, ...p }]);
            break;
          default:
            events.push(['contentBlockDelta', { contentBlockIndex: index, delta: { text: texts[rand(texts.length)] }, ...p }]);
        }
      }
      events.push(['messageStop', { stopReason: 'end_turn' }], ['metadata', { usage: { inputTokens: 3, outputTokens: 4 } }]);
      const mock = rand(3);
      const compact = frames(events, false, (i) => (i + mock) % 3 === 0);
      const spaced = frames(events, true, () => false);
      const want = decode(spaced, rand(spaced.length));
      assert.ok(
        want.every((e) => !('literal' in e) || e.literal === undefined),
        'spaced frames go the full way',
      );
      const got = decode(compact, rand(compact.length));
      literals += got.filter((e) => 'literal' in e && e.literal !== undefined).length;
      assert.deepEqual(withoutLiterals(got), withoutLiterals(want));
    }
    assert.ok(literals > 500, `the fast path read ${literals} deltas`);
  });
});
