// The NDJSON reader hands out the same lines with or without an in-place line reader, whatever
// the line ends and however the bytes are split: each variant is checked against the text
// TextDecoder decodes whole, split at line feeds and trimmed, on known shapes and on seeded
// random streams (bad UTF-8 included: the reader decodes with Buffer's decoder).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDecoder } from 'node:util';
import { NdjsonReader, lineEndsAt } from '../../../../src/shared/protocols/framing/ndjson.js';
import { chunksAt, everyByte, randomCuts } from '../../../helpers/byte-cuts.js';
import { lcgRandom } from '../../../helpers/seeded-random.js';

type InPlace = 'off' | 'none' | 'half' | 'all' | 'starts' | 'half starts';
const IN_PLACE: readonly InPlace[] = ['off', 'none', 'half', 'all', 'starts', 'half starts'];
/** A line-start reader's match: a visible ASCII character, then up to the line's end, ending with one (a real one matches a known shape). */
const LINE = /[\x21-\x7e](?:[^\r\n]*[\x21-\x7e])?/y;

/**
 * `inPlace`: the reader is given a line reader that takes no line, every other one it is
 * offered, or all; the lines it takes go to `out` in their place in the sequence. With
 * `starts`, also a line-start reader that takes every line it can (or every other one).
 */
function viaReader(bytes: Buffer, cuts: number[], inPlace: InPlace = 'off'): string[] {
  const out: string[] = [];
  let offered = 0;
  const take = (text: string, start: number, end: number): boolean => {
    offered++;
    if (inPlace === 'none' || (inPlace === 'half' && offered % 2 === 0)) return false;
    out.push(text.slice(start, end));
    return true;
  };
  let starts = 0;
  const takeStart = (text: string, start: number): number => {
    LINE.lastIndex = start;
    if (!LINE.test(text) || !lineEndsAt(text, LINE.lastIndex) || (inPlace === 'half starts' && ++starts % 2 === 0)) return -1;
    out.push(text.slice(start, LINE.lastIndex));
    return LINE.lastIndex;
  };
  const r = new NdjsonReader((line) => out.push(line), inPlace === 'off' ? null : take, inPlace === 'starts' || inPlace === 'half starts' ? takeStart : null);
  for (const chunk of chunksAt(bytes, cuts)) r.push(chunk);
  r.end();
  return out;
}

function wholeLines(bytes: Buffer): string[] {
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

const CASES: Record<string, string> = {
  'plain lines': '{"a":1}\n{"b":"é"}\n',
  CRLF: '{"a":1}\r\n{"b":2}\r\n',
  'blank and whitespace-only lines': '\n\n{"a":1}\n \n\t\r\n\r\n{"b":2}\n\n',
  'surrounding whitespace': '  {"a":1}\n{"b":2}  \n\t{"c":3}\t\r\n{"d":4} \r\n',
  'CR alone, CR before CR LF': '{"a":1}\r\r\n\r{"b":2}\n{"c"\r:3}\n',
  'no final line feed': '{"a":1}\n{"b":2}',
  'no final line feed, CR': '{"a":1}\n{"b":2}\r',
  'multi-byte characters, at the ends too': '{"t":"☀️ 世界 🎉"}\né\n🎉x🎉\n',
  'unicode whitespace trim() removes': '\u00a0{"a":1}\u00a0\n\u2028{"b":2}\u3000\n\ufeff{"c":3}\n',
  'byte-order mark at the start': '\ufeff{"a":1}\n',
  'single characters': 'x\n}\n{\n \n',
};

describe('NdjsonReader', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`${name}: whole and one byte at a time, the same lines with and without an in-place reader`, () => {
      const bytes = Buffer.from(text);
      const want = wholeLines(bytes);
      for (const inPlace of IN_PLACE) {
        assert.deepEqual(viaReader(bytes, [], inPlace), want, inPlace);
        assert.deepEqual(viaReader(bytes, everyByte(bytes.length), inPlace), want, inPlace);
      }
    });
  }

  it('offers a line in place only where trimming would not change it', () => {
    const offered: string[] = [];
    const r = new NdjsonReader(
      () => {},
      (text, start, end) => {
        offered.push(text.slice(start, end));
        return false;
      },
    );
    r.push(Buffer.from('{"a":1}\r\n {"b":2}\n{"c":3} \n\n{"d":4}\r'));
    r.end();
    assert.deepEqual(offered, ['{"a":1}', '{"d":4}']);
  });

  it('random streams cut at random places give the same lines in every variant', () => {
    const rand = lcgRandom(4242);
    const pieces = ['{"a":1}', '{"t":"é☀️"}', '\n', '\n', '\r\n', '\r', ' ', '\t', 'x', '}', '{', '🎉', '世界', '\u00a0', '\ufeff', '\u2028', '"'];
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let k = rand(25); k > 0; k--) text += pieces[rand(pieces.length)];
      const bytes = Buffer.from(text);
      const cuts = randomCuts(rand, bytes.length, 5);
      const want = wholeLines(bytes);
      for (const inPlace of IN_PLACE) {
        assert.deepEqual(viaReader(bytes, cuts, inPlace), want, JSON.stringify({ text, cuts, inPlace }));
      }
    }
  });

  it('random bytes, bad UTF-8 and byte-order marks included, read as TextDecoder reads them whole', () => {
    const rand = lcgRandom(77);
    const pieces = [
      [0x7b, 0x7d],
      [0x0a],
      [0x0d, 0x0a],
      [0x20],
      [0xef, 0xbb, 0xbf],
      [0xc3, 0xa9],
      [0xe2, 0x98, 0x80],
      [0xf0, 0x9f, 0x8e, 0x89],
      [0xe0, 0x80],
      [0xc0],
      [0x80],
      [0xff],
      [0xf0, 0x9f],
      [0x78],
    ];
    for (let i = 0; i < 5000; i++) {
      const bytes = Buffer.from(Array.from({ length: rand(12) }, () => pieces[rand(pieces.length)]!).flat());
      const cuts = randomCuts(rand, bytes.length, 5);
      const want = wholeLines(bytes);
      for (const inPlace of ['off', 'all'] as const) {
        assert.deepEqual(viaReader(bytes, cuts, inPlace), want, JSON.stringify({ bytes: [...bytes], cuts, inPlace }));
      }
    }
  });
});
