// The windowed quantiles of a shared histogram: a window is the newest cumulative counts minus
// the snapshot from buffer_seconds ago, and a quantile interpolates inside its bucket.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HistogramWindows, bucketQuantile } from '../../../src/worker/metrics/duration-window.js';

const BOUNDS = [0.1, 0.5, 1];
const SLOT = 8;

describe('histogram windows', () => {
  it('counts only what arrived within buffer_seconds', () => {
    const w = new HistogramWindows();
    w.begin(0, 10);
    assert.deepEqual(w.window(SLOT, [5, 0, 0, 0], 0.25, 10).counts, [5, 0, 0, 0], 'nothing older: the first window is everything');
    w.begin(5_000, 10);
    w.window(SLOT, [5, 2, 0, 0], 0.85, 10);
    w.begin(8_000, 10);
    assert.deepEqual(w.window(SLOT, [5, 2, 1, 0], 1.85, 10).counts, [5, 2, 1, 0], 'no snapshot 10 s old yet: from process start');
    w.begin(12_000, 10);
    // The window starts at 2 s: the snapshot at 0 s is the newest at or before it.
    const window = w.window(SLOT, [5, 2, 4, 0], 3.85, 10);
    assert.deepEqual(window.counts, [0, 2, 4, 0]);
    assert.equal(window.count, 6);
    assert.ok(Math.abs(window.sum - 3.6) < 1e-9);
    w.begin(16_000, 10);
    // Now the window starts at 6 s: the 5 s snapshot is the base.
    assert.deepEqual(w.window(SLOT, [5, 2, 4, 1], 5.85, 10).counts, [0, 0, 4, 1]);
  });

  it('interpolates quantiles inside the bucket, and caps at the last bound', () => {
    const window = { counts: [0, 2, 4, 0], count: 6, sum: 0 };
    const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;
    assert.ok(near(bucketQuantile(0.5, BOUNDS, window), 0.625));
    assert.ok(near(bucketQuantile(0.25, BOUNDS, window), 0.4));
    assert.equal(bucketQuantile(0.99, BOUNDS, { counts: [0, 0, 0, 3], count: 3, sum: 0 }), 1);
    assert.ok(Number.isNaN(bucketQuantile(0.5, BOUNDS, { counts: [0, 0, 0, 0], count: 0, sum: 0 })));
  });
});
