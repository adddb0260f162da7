// The sticky patterns accept exactly what the scanners they stand for accept (json-scan.ts and
// integerEnd), at the same end, on seeded random texts; literals match themselves only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SLOT_PATTERN, StickyLiteral, layoutMissed, literalPattern } from '../../../../src/shared/protocols/fast-path/sticky-pattern.js';
import { plainStringEnd, stringLiteralEnd } from '../../../../src/shared/protocols/fast-path/json-scan.js';
import { integerEnd } from '../../../../src/shared/protocols/responses/stream-fast-path.js';

/** Where `pattern` matched at `at` in `s` ended, or -1. */
function matchEnd(pattern: string, s: string, at: number): number {
  const re = new RegExp(pattern, 'y');
  re.lastIndex = at;
  return re.test(s) ? re.lastIndex : -1;
}

const ALPHABET = ['"', '\\', 'a', '0', '1', '9', ' ', '\t', '\n', '\u0000', '\u001f', '\u007f', 'é', '☀', '\ud83d', ',', '}', 'u', 'n'];

describe('sticky patterns', () => {
  it('take what the scanners take, to the same end', () => {
    let seed = 20261124;
    const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    for (let i = 0; i < 40_000; i++) {
      let s = rand(3) === 0 ? '' : 'x';
      const at = s.length;
      for (let k = rand(12); k > 0; k--) s += ALPHABET[rand(ALPHABET.length)];
      if (rand(2) === 0) s = s.slice(0, at) + '"' + s.slice(at);
      const plain = plainStringEnd(s, at);
      assert.equal(matchEnd(SLOT_PATTERN.plainString, s, at), plain, JSON.stringify(s));
      assert.equal(matchEnd(SLOT_PATTERN.nonEmptyPlainString, s, at), plain === at + 2 ? -1 : plain, JSON.stringify(s));
      const literal = stringLiteralEnd(s, at);
      const literalEnd = literal === 0 ? -1 : literal < 0 ? -literal - 1 : literal;
      assert.equal(matchEnd(SLOT_PATTERN.stringLiteral, s, at), literalEnd, JSON.stringify(s));
      // Not empty: a literal of two quotes is refused by the pattern (the callers refuse it too).
      assert.equal(matchEnd(SLOT_PATTERN.nonEmptyStringLiteral, s, at), literalEnd === at + 2 ? -1 : literalEnd, JSON.stringify(s));
      assert.equal(matchEnd(SLOT_PATTERN.integer, s, at), integerEnd(s, at), JSON.stringify(s));
      // The ASCII variants: the same, where every character of the match is below 0x80.
      const ascii = (end: number): number => (end >= 0 && /^[\x00-\x7f]*$/.test(s.slice(at, end)) ? end : -1);
      assert.equal(matchEnd(SLOT_PATTERN.asciiPlainString, s, at), ascii(plain), JSON.stringify(s));
      assert.equal(matchEnd(SLOT_PATTERN.asciiStringLiteral, s, at), ascii(literalEnd), JSON.stringify(s));
    }
  });

  it('match a literal as its characters, metacharacters and control characters included', () => {
    const texts = ['{"type":"content_block_delta","index":', '\\^$.*+?()[]{}|/', '\u0000\u000b:event-type\u0007\u0000\u0011', 'a\nb'];
    for (const text of texts) {
      const lit = new StickyLiteral(text);
      assert.ok(lit.at(`xy${text}z`, 2), text);
      assert.ok(!lit.at(`xy${text}z`, 1), text);
      assert.ok(!lit.at(`xy${text.slice(0, -1)}`, 2), text);
      assert.ok(!lit.at(text, -1), 'a negative index is no match');
      assert.ok(!lit.at(text, text.length + 1));
      assert.equal(new RegExp(`^${literalPattern(text)}$`).test(text), true);
    }
  });
});

describe('layoutMissed', () => {
  it('learns at once without a layout, then on the 1st, 2nd, 4th, 8th... miss, the count going on', () => {
    assert.equal(layoutMissed(null), 0);
    const layout = { misses: 0 };
    const learnt: number[] = [];
    for (let i = 0; i < 20; i++) if (layoutMissed(layout) >= 0) learnt.push(layout.misses);
    assert.deepEqual(learnt, [1, 2, 4, 8, 16]);
    assert.equal(layout.misses, 20);
  });
});
