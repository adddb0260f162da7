import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SwrrCursor, type MemberFilter } from '../../../src/shared/routing/swrr.js';

const ALL: MemberFilter = { eligible: () => true };

describe('smooth weighted round robin', () => {
  it('weights 5,1,1 give the nginx sequence a a b a c a a', () => {
    const cursor = new SwrrCursor([5, 1, 1]);
    const names = 'abc';
    const seq = Array.from({ length: 7 }, () => names[cursor.pick(ALL)]).join(' ');
    assert.equal(seq, 'a a b a c a a');
  });

  it('over a full cycle each member is picked exactly its weight', () => {
    const weights = [3, 7, 1, 4, 2];
    const cursor = new SwrrCursor(weights);
    const total = weights.reduce((a, b) => a + b, 0);
    for (let cycle = 0; cycle < 3; cycle++) {
      const counts = weights.map(() => 0);
      for (let i = 0; i < total; i++) counts[cursor.pick(ALL)]!++;
      assert.deepEqual(counts, weights);
    }
  });

  it('has no member limit (100 members, the bitmask of old stopped at 31)', () => {
    const weights = Array.from({ length: 100 }, (_, i) => 1 + (i % 3));
    const cursor = new SwrrCursor(weights);
    const counts = weights.map(() => 0);
    const total = weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < total; i++) counts[cursor.pick(ALL)]!++;
    assert.deepEqual(counts, weights);
    const onlyLast: MemberFilter = { eligible: (i) => i === 99 };
    assert.equal(cursor.pick(onlyLast), 99);
  });

  it('skips ineligible members and answers -1 when none is eligible', () => {
    const cursor = new SwrrCursor([5, 1, 1]);
    const notA: MemberFilter = { eligible: (i) => i !== 0 };
    const picks = Array.from({ length: 4 }, () => cursor.pick(notA));
    assert.deepEqual(picks.sort(), [1, 1, 2, 2]);
    assert.equal(cursor.pick({ eligible: () => false }), -1);
  });
});
