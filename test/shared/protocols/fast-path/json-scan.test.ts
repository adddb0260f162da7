import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { plainScalarEnd, plainStringEnd, holdsAt } from '../../../../src/shared/protocols/fast-path/json-scan.js';

describe('plainScalarEnd', () => {
  it('ends integers without leading zeros and null, and nothing else', () => {
    assert.equal(plainScalarEnd('[12,', 1), 3);
    assert.equal(plainScalarEnd('0,', 0), 1);
    assert.equal(plainScalarEnd('null}', 0), 4);
    assert.equal(plainScalarEnd('nul', 0), -1);
    assert.equal(plainScalarEnd('-1', 0), -1);
    assert.equal(plainScalarEnd('"1"', 0), -1);
  });

  it('finds no value past the end of the text', () => {
    assert.equal(plainScalarEnd('', 0), -1);
    assert.equal(plainScalarEnd('12', 2), -1);
  });

  it('never ends past the text, and ends where a JSON number or null ends (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.nat({ max: 10 }), (s, at) => {
        const end = plainScalarEnd(s, at);
        if (end === -1) return;
        assert.ok(end > at && end <= s.length);
        const value = s.slice(at, end);
        assert.ok(value === 'null' || /^(0|[1-9][0-9]*)$/.test(value), value);
      }),
    );
  });
});

describe('plainStringEnd and holdsAt', () => {
  it('ends a string without escapes or control characters', () => {
    assert.equal(plainStringEnd('"ab",', 0), 4);
    assert.equal(plainStringEnd('"a\\"b"', 0), -1);
    assert.equal(plainStringEnd('"a\nb"', 0), -1);
    assert.equal(plainStringEnd('"ab', 0), -1);
  });

  it('compares a text at an offset, never past the end', () => {
    assert.equal(holdsAt('{"type":"x"}', 1, '"type"'), true);
    assert.equal(holdsAt('{"ty', 1, '"type"'), false);
  });
});
