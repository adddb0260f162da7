// The byte-level SSE reader hands out exactly the events eventsource-parser (over a streaming
// TextDecoder) hands out, whatever the framing and however the bytes are split: checked on
// known shapes and on seeded random streams cut at random places.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDecoder } from 'node:util';
import { createParser } from 'eventsource-parser';
import { SseReader, dataStart, eventEndsAt } from '../../../../src/shared/protocols/framing/sse.js';
import { chunksAt, everyByte, randomCuts } from '../../../helpers/byte-cuts.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

type Ev = [string | undefined, string];

type InPlace = 'off' | 'none' | 'half' | 'all' | 'lines' | 'half lines';
const IN_PLACE: readonly InPlace[] = ['off', 'none', 'half', 'all', 'lines', 'half lines'];
/** A line reader's match: a line up to its end (a real one matches a known shape, which holds no CR or LF). */
const LINE = /[^\r\n]*/y;
const lineEnd = (text: string, at: number): number => {
  LINE.lastIndex = at;
  LINE.test(text);
  return LINE.lastIndex;
};

/**
 * `inPlace`: the reader is given a data reader that takes no event, every other one it is
 * offered, or all; the events it takes go to `out` in their place in the sequence. With
 * `lines`, also a line reader that takes every unnamed data line it can (or every other one).
 */
function viaReader(bytes: Buffer, cuts: number[], inPlace: InPlace = 'off'): Ev[] {
  const out: Ev[] = [];
  let offered = 0;
  const take = (text: string, start: number, end: number, nameStart: number, nameEnd: number): boolean => {
    offered++;
    if (inPlace === 'none' || (inPlace === 'half' && offered % 2 === 0)) return false;
    out.push([nameStart < 0 ? undefined : text.slice(nameStart, nameEnd), text.slice(start, end)]);
    return true;
  };
  let lines = 0;
  /** Takes `event: NAME` (a non-empty name after one space) then `data:`, or `data:` alone, as their lines end. */
  const takeLine = (text: string, at: number): number => {
    let name: string | undefined;
    let line = at;
    if (text.startsWith('event: ', at) && text.length > at + 7 && !'\r\n'.includes(text[at + 7]!)) {
      const nameEnd = lineEnd(text, at);
      if (text.charCodeAt(nameEnd) !== 0x0a) return -1;
      name = text.slice(at + 7, nameEnd);
      line = nameEnd + 1;
    }
    const start = dataStart(text, line);
    if (start < 0) return -1;
    const end = lineEnd(text, start);
    if (!eventEndsAt(text, end, name !== undefined) || (inPlace === 'half lines' && ++lines % 2 === 0)) return -1;
    out.push([name, text.slice(start, end)]);
    return end;
  };
  const r = new SseReader((e, d) => out.push([e, d]), inPlace === 'off' ? null : take, inPlace === 'lines' || inPlace === 'half lines' ? takeLine : null);
  for (const chunk of chunksAt(bytes, cuts)) r.push(chunk);
  r.end();
  return out;
}

function viaLibrary(bytes: Buffer): Ev[] {
  const out: Ev[] = [];
  const decoder = new TextDecoder();
  const p = createParser({ onEvent: (m) => out.push([m.event, m.data]) });
  p.feed(decoder.decode(bytes, { stream: true }));
  p.feed(decoder.decode() + '\n\n');
  return out;
}

const CASES: Record<string, string> = {
  'one-line data events': 'data: {"a":1}\n\ndata: [DONE]\n\n',
  'named events': 'event: message_start\ndata: {"x":"é"}\n\nevent: ping\ndata: {}\n\n',
  'multi-line data, comments, id, retry, unknown fields': ': hi\nid: 7\ndata: a\ndata:b\nretry: 10\nfoo: bar\ndata\n\n',
  'event without data, empty event name': 'event: x\n\nevent:\ndata: y\n\n',
  'extra blank lines, no final blank line': '\n\n\ndata: 1\n\n\n\ndata: 2\n',
  CRLF: 'data: 1\r\n\r\nevent: e\r\ndata: 2\r\n\r\n',
  'CR after LF events': 'data: 1\n\ndata: 2\r\rdata: 3\n\n',
  BOM: '\ufeffdata: 1\n\n',
  'multi-byte characters': 'data: ☀️ 世界 🎉\n\nevent: é\ndata: ü\n\n',
  'data without space, field without colon': 'data:x\n\ndata\n\n',
  'one-line events, then a named one, then one-line again': 'data: 1\n\ndata:2\n\nevent: e\ndata: 3\n\ndata: 4\n\ndata:\n\n',
  'BOM after a one-line event': 'data: 1\n\n\ufeffdata: 2\n\n',
  'named one-line events, empty and spaceless names':
    'event: a\ndata: 1\n\nevent:\ndata: 2\n\nevent:b\ndata:3\n\nevent: c\nevent: d\ndata: 4\n\nevent: e\n\ndata: 5\n\n',
  'CRLF one-line events, as Gemini writes them': 'data: {"a":1}\r\n\r\ndata:{"b":"é"}\r\n\r\ndata: 3\r\n\r\n',
  'CRLF and LF one-line events mixed': 'data: 1\r\n\r\ndata: 2\n\ndata: 3\r\n\r\nevent: e\r\ndata: 4\r\n\r\ndata: 5\r\n\r\n',
  'a CR inside a data line, CR-only and mixed line ends': 'data: a\rb\r\n\r\ndata: c\r\rdata: d\n\r\ndata: e\r\r\ndata: f\r\n\ndata: g\r\n\r\n',
  'a CRLF event without its blank line, then LF events': 'data: 1\r\ndata: 2\r\n\r\ndata: 3\n\n',
  "named events with CRLF line ends (the parser's)": 'event: a\r\ndata: 1\r\n\r\nevent: b\ndata: 2\r\n\r\ndata: 3\r\n\r\n',
};

describe('SseReader', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`${name}: whole, cut in two at every byte and one byte at a time, as the library reads it`, () => {
      const bytes = Buffer.from(text);
      const want = viaLibrary(bytes);
      for (const inPlace of IN_PLACE) {
        assert.deepEqual(viaReader(bytes, [], inPlace), want, inPlace);
        for (let at = 1; at < bytes.length; at++) assert.deepEqual(viaReader(bytes, [at], inPlace), want, `${inPlace}, cut at ${at}`);
        assert.deepEqual(viaReader(bytes, everyByte(bytes.length), inPlace), want, inPlace);
      }
    });
  }

  it('offers one-line CRLF events in place, whole, one per chunk, and again after one cut inside', () => {
    const events = Array.from({ length: 6 }, (_, i) => `data: {"n":${i}}\r\n\r\n`);
    const text = events.join('');
    const cutInside = text.indexOf('\r\n', text.indexOf('"n":2')) + 3; // after the blank line's CR
    for (const chunks of [[text], events, [text.slice(0, cutInside), text.slice(cutInside)]]) {
      const inPlace: string[] = [];
      const parsed: string[] = [];
      const r = new SseReader(
        (_e, d) => parsed.push(d),
        (t, start, end) => inPlace.push(t.slice(start, end)) > 0,
      );
      for (const c of chunks) r.push(Buffer.from(c));
      r.end();
      // Cut inside event 2, the parser holds its blank line's CR: event 2 is the parser's, and
      // event 3 (in the same chunk as the LF that ends it) too; the split resumes after that.
      const viaParser = chunks.length === 2 ? ['{"n":2}', '{"n":3}'] : [];
      assert.deepEqual(parsed, viaParser, JSON.stringify(chunks));
      assert.equal(inPlace.length + parsed.length, 6);
    }
  });

  it('random streams cut at random places read as the library reads them', () => {
    const rand = lcgRandom(99);
    const pieces = [
      'data: ',
      'data:',
      'event: ',
      'id: 1',
      ': c',
      'x',
      '{"t":"é☀️"}',
      '\n',
      '\n\n',
      '\n\n',
      'retry: 5',
      '🎉',
      ' ',
      'data',
      'data: x\n\n',
      'data: y\n\n',
      '\ufeff',
      'event: n\n',
      'event: m\ndata: z\n\n',
      'event:\n',
      '\r',
      '\r\n',
      '\r\n\r\n',
      'data: z\r\n\r\n',
      'data: w\r\n\r\n',
      'event: k\r\ndata: v\r\n\r\n',
    ];
    for (let i = 0; i < 6000; i++) {
      let text = '';
      for (let k = rand(25); k > 0; k--) text += pieces[rand(pieces.length)];
      if (rand(20) === 0) text += '\r\n';
      const bytes = Buffer.from(text);
      const cuts = randomCuts(rand, bytes.length, 4);
      const want = viaLibrary(bytes);
      for (const inPlace of IN_PLACE) {
        assert.deepEqual(viaReader(bytes, cuts, inPlace), want, JSON.stringify({ text, cuts, inPlace }));
      }
    }
  });
});

describe('Utf8Chunks', () => {
  it('decodes random bytes cut at random places to the same text as a streaming TextDecoder', async () => {
    const { Utf8Chunks } = await import('../../../../src/shared/protocols/framing/sse.js');
    const rand = lcgRandom(7);
    const pieces = [
      [0x41],
      [0x0a],
      [0xef, 0xbb, 0xbf],
      [0xc3, 0xa9],
      [0xe2, 0x98, 0x80],
      [0xf0, 0x9f, 0x8e, 0x89],
      [0xe0, 0x80],
      [0xc0],
      [0x80],
      [0xf4, 0x90],
      [0xed, 0xa0, 0x80],
      [0xff],
      [0xf0, 0x9f],
    ];
    for (let i = 0; i < 20_000; i++) {
      const bytes = Buffer.from(Array.from({ length: rand(8) }, () => pieces[rand(pieces.length)]!).flat());
      const cuts = randomCuts(rand, bytes.length, 4);
      const mine = new Utf8Chunks();
      const theirs = new TextDecoder();
      let a = '';
      let b = '';
      for (const chunk of chunksAt(bytes, cuts)) {
        a += mine.decode(chunk, { stream: true });
        b += theirs.decode(chunk, { stream: true });
      }
      a += mine.decode();
      b += theirs.decode();
      assert.equal(a, b, JSON.stringify({ bytes: [...bytes], cuts }));
    }
  });
});
