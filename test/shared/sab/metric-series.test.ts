import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KIND_HISTOGRAM, SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';

function setup(): { main: SharedState; registry: SlotRegistry } {
  const main = SharedState.create({ holders: 2 });
  return { main, registry: new SlotRegistry(main) };
}

describe('metric series', () => {
  it('counters add', () => {
    const { main, registry } = setup();
    const s = registry.metricSeries('gateway_requests_total{pool="p",outcome="ok"}', { kind: 'counter' });
    main.metrics.counterAdd(s);
    main.metrics.counterAdd(s, 41);
    assert.equal(main.metrics.counterValue(s), 42);
    assert.throws(() => main.metrics.counterAdd(s, -1), RangeError);
    assert.throws(() => main.metrics.counterAdd(s, 0.5), RangeError);
  });

  it('gauges add and set', () => {
    const { main, registry } = setup();
    const s = registry.metricSeries('gateway_pool_queued{pool="p"}', { kind: 'gauge' });
    assert.equal(main.metrics.gaugeAdd(s, 3), 3);
    assert.equal(main.metrics.gaugeAdd(s, -1), 2);
    main.metrics.gaugeSet(s, 10);
    assert.equal(main.metrics.gaugeValue(s), 10);
  });

  it('histograms bucket by `le`, sum scaled, count = sum of buckets', () => {
    const { main, registry } = setup();
    const s = registry.metricSeries('gateway_request_duration_seconds{pool="p"}', { kind: 'histogram', bounds: [0.1, 1, 10] });
    assert.equal(main.kindAt(s), KIND_HISTOGRAM);
    for (const v of [0.05, 0.1, 0.5, 1, 2, 10, 11, -3, Number.NaN, Infinity]) main.metrics.observe(s, v);
    const h = main.metrics.readHistogram(s);
    assert.deepEqual(h.bounds, [0.1, 1, 10]);
    assert.deepEqual(h.counts, [4, 2, 2, 2]);
    assert.equal(h.count, 10);
    assert.equal(h.sum, 0.05 + 0.1 + 0.5 + 1 + 2 + 10 + 11);
  });

  it('every value lands in the bucket of the first bound >= it (property, against a scan)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.double({ min: 0.0001, max: 1000, noNaN: true }), { minLength: 1, maxLength: 64 }),
        fc.array(fc.oneof(fc.double({ min: -1, max: 2000, noNaN: true }), fc.constantFrom(0, Number.NaN, Infinity)), { maxLength: 40 }),
        fc.nat(),
        (raw, values, pick) => {
          const bounds = [...raw].sort((a, b) => a - b);
          // Bounds themselves are the edge cases: `le` puts a value equal to a bound in its bucket.
          const all = [...values, bounds[pick % bounds.length]!];
          const { main, registry } = setup();
          const s = registry.metricSeries('h', { kind: 'histogram', bounds });
          const expected = new Array<number>(bounds.length + 1).fill(0);
          for (const v of all) {
            main.metrics.observe(s, v);
            const x = Math.max(v, 0);
            let i = 0;
            while (i < bounds.length && x > bounds[i]!) i++;
            expected[i]!++;
          }
          assert.deepEqual(main.metrics.readHistogram(s).counts, expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('large observations are summed exactly through chunked adds', () => {
    const { main, registry } = setup();
    const s = registry.metricSeries('h', { kind: 'histogram', bounds: [1], sumScale: 1_000_000 });
    main.metrics.observe(s, 300);
    main.metrics.observe(s, 5_000);
    assert.equal(main.metrics.readHistogram(s).sum, 5_300);
  });

  it('the same key gives the same series; a different spec is an error', () => {
    const { registry } = setup();
    const a = registry.metricSeries('x', { kind: 'histogram', bounds: [1, 2] });
    assert.equal(registry.metricSeries('x', { kind: 'histogram', bounds: [1, 2], sumScale: 1000 }), a);
    assert.throws(() => registry.metricSeries('x', { kind: 'histogram', bounds: [1, 3] }), /different kind or bounds/);
    assert.throws(() => registry.metricSeries('x', { kind: 'counter' }), /different kind or bounds/);
    assert.equal(registry.metricSeriesList().length, 1);
  });

  it('refuses bad histogram specs before allocating', () => {
    const { registry } = setup();
    const before = registry.bytesNeeded();
    assert.throws(() => registry.metricSeries('a', { kind: 'histogram', bounds: [] }), RangeError);
    assert.throws(() => registry.metricSeries('b', { kind: 'histogram', bounds: [2, 1] }), RangeError);
    assert.throws(() => registry.metricSeries('c', { kind: 'histogram', bounds: [1, Infinity] }), RangeError);
    assert.throws(() => registry.metricSeries('d', { kind: 'histogram', bounds: [1], sumScale: 0.5 }), RangeError);
    assert.equal(registry.bytesNeeded(), before);
  });
});
