import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  WINDOW_DAY, WINDOW_MINUTE, WINDOW_MONTH, WINDOW_TOTAL, WINDOW_WEEK, secondsToWindowEnd, windowStartSec, windowTag,
} from '../../../src/shared/governance/windows.js';
import { findRate, tokenCostMicros, tokenCostMicrosBig, type RateEntry } from '../../../src/shared/governance/pricing.js';

const T = Date.UTC(2026, 10, 23, 16, 40, 30) / 1000; // Monday 2026-11-23 16:40:30 UTC

describe('governance windows', () => {
  it('starts and ends windows on UTC boundaries; weeks start on Monday', () => {
    assert.equal(windowStartSec(WINDOW_MINUTE, T), T - 30);
    assert.equal(secondsToWindowEnd(WINDOW_MINUTE, T), 30);
    assert.equal(windowStartSec(WINDOW_DAY, T), Date.UTC(2026, 10, 23) / 1000);
    assert.equal(windowStartSec(WINDOW_WEEK, T), Date.UTC(2026, 10, 23) / 1000);
    assert.equal(windowStartSec(WINDOW_WEEK, T - 86_400), Date.UTC(2026, 10, 16) / 1000);
    assert.equal(windowStartSec(WINDOW_MONTH, T), Date.UTC(2026, 10, 1) / 1000);
    assert.equal(secondsToWindowEnd(WINDOW_MONTH, T), Date.UTC(2026, 11, 1) / 1000 - T);
    assert.equal(secondsToWindowEnd(WINDOW_TOTAL, T), null);
    assert.equal(windowTag(WINDOW_TOTAL, T), 0);
    assert.notEqual(windowTag(WINDOW_MINUTE, T), windowTag(WINDOW_MINUTE, T + 60));
    assert.ok(windowTag(WINDOW_MINUTE, T) <= 0xffff);
  });
});

describe('prices', () => {
  const card: RateEntry[] = [
    { model: '*', tier: '*', input_micros_per_mtok: 1, output_micros_per_mtok: 1, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 },
    { model: 'gpt', tier: '*', input_micros_per_mtok: 2_000_000, output_micros_per_mtok: 8_000_000, cache_read_micros_per_mtok: 500_000, cache_creation_micros_per_mtok: 0 },
    { model: 'gpt', tier: 'default', input_micros_per_mtok: 3_000_000, output_micros_per_mtok: 9_000_000, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 },
  ];
  it('an exact model beats *, an exact tier beats *', () => {
    assert.equal(findRate(card, 'gpt')!.input_micros_per_mtok, 3_000_000);
    assert.equal(findRate(card, 'gpt', 'batch')!.input_micros_per_mtok, 2_000_000);
    assert.equal(findRate(card, 'other')!.input_micros_per_mtok, 1);
    assert.equal(findRate([], 'gpt'), null);
  });
  it('costs are integer micro-units, the same in Number and BigInt', () => {
    const rate = findRate(card, 'gpt', 'batch');
    assert.equal(tokenCostMicros(rate, 1000, 500, 200, 0), 2000 + 4000 + 100);
    assert.equal(tokenCostMicrosBig(rate, 1000, 500, 200, 0), 6100n);
    assert.equal(tokenCostMicros(rate, 1, 0, 0, 0), 2);
    assert.equal(tokenCostMicros(null, 1000, 1000, 0, 0), 0);
  });
});
