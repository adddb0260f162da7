// The wide counter's carry, forced by starting lo just under 2^31 (and hi at a high value)
// through the raw words, the one place a test reaches under the accessors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COUNTER_VALUE, SharedInvariantError, SharedState, SlotRegistry, WIDE_DELTA_MAX } from '../../../src/shared/sab/index.js';

function counterAt(lo: number, hi: number): { main: SharedState; s: number; u32: Uint32Array } {
  const main = SharedState.create({ holders: 1 });
  const s = new SlotRegistry(main).metricSeries('c', { kind: 'counter' });
  const u32 = new Uint32Array(main.buffers().memory);
  u32[s + COUNTER_VALUE] = lo;
  u32[s + COUNTER_VALUE + 1] = hi;
  return { main, s, u32 };
}

describe('wide counter', () => {
  it('carries across 2^31 and keeps counting exactly', () => {
    const { main, s, u32 } = counterAt(2 ** 31 - 2, 0);
    for (let i = 0; i < 5; i++) main.metrics.counterAdd(s);
    assert.equal(main.metrics.counterValue(s), 2 ** 31 + 3);
    assert.equal(u32[s + COUNTER_VALUE + 1], 2, 'hi even after the carry');
    assert.equal(u32[s + COUNTER_VALUE], 3);
  });

  it('reads correctly in every phase of a carry', () => {
    const { main, s, u32 } = counterAt(2 ** 31 + 10, 4);
    const expected = 2 * 2 ** 31 + 2 ** 31 + 10;
    assert.equal(main.metrics.counterValue(s), expected, 'crossed, carry not begun');
    u32[s + COUNTER_VALUE + 1] = 5;
    assert.equal(main.metrics.counterValue(s), expected, 'hi odd, unit still in lo');
    u32[s + COUNTER_VALUE] = 10;
    assert.equal(main.metrics.counterValue(s), expected, 'hi odd, unit moved');
    u32[s + COUNTER_VALUE + 1] = 6;
    assert.equal(main.metrics.counterValue(s), expected, 'carry done');
  });

  it('counts past 2^32 and beyond with a large hi', () => {
    const { main, s } = counterAt(2 ** 31 - 1, 2 * 2 ** 20);
    main.metrics.counterAdd(s, 2);
    assert.equal(main.metrics.counterValue(s), 2 ** 20 * 2 ** 31 + 2 ** 31 + 1);
  });

  it('splits adds larger than the chunk limit', () => {
    const { main, s } = counterAt(0, 0);
    main.metrics.counterAdd(s, 5 * WIDE_DELTA_MAX + 3);
    main.metrics.counterAdd(s, 2 ** 33);
    assert.equal(main.metrics.counterValue(s), 5 * WIDE_DELTA_MAX + 3 + 2 ** 33);
  });

  it('detects a wrap instead of losing 2^32 silently', () => {
    const { main, s } = counterAt(2 ** 32 - 2, 0);
    assert.throws(() => main.metrics.counterAdd(s, 5), SharedInvariantError);
    assert.equal(main.faultCount(), 1);
  });
});
