import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  WINDOW_DAY,
  WINDOW_MINUTE,
  WINDOW_MONTH,
  WINDOW_TOTAL,
  WINDOW_WEEK,
  secondsToWindowEnd,
  windowStartSec,
  windowTag,
} from '../../../src/shared/governance/windows.js';
import { costMicros, costMicrosAt, costMicrosBig, findRate, type RateEntry } from '../../../src/shared/governance/pricing.js';

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
    {
      model: 'gpt',
      tier: '*',
      input_micros_per_mtok: 2_000_000,
      output_micros_per_mtok: 8_000_000,
      cache_read_micros_per_mtok: 500_000,
      cache_creation_micros_per_mtok: 0,
    },
    {
      model: 'gpt',
      tier: 'default',
      input_micros_per_mtok: 3_000_000,
      output_micros_per_mtok: 9_000_000,
      cache_read_micros_per_mtok: 0,
      cache_creation_micros_per_mtok: 0,
    },
  ];
  it('an exact model beats *, an exact tier beats *', () => {
    assert.equal(findRate(card, 'gpt')!.input_micros_per_mtok, 3_000_000);
    assert.equal(findRate(card, 'gpt', 'batch')!.input_micros_per_mtok, 2_000_000);
    assert.equal(findRate(card, 'other')!.input_micros_per_mtok, 1);
    assert.equal(findRate([], 'gpt'), null);
  });
  it('costs are integer micro-units, the same in Number and BigInt', () => {
    const rate = findRate(card, 'gpt', 'batch');
    assert.equal(costMicros(rate, 1000, 500, 200, 0), 2000 + 4000 + 100);
    assert.equal(costMicrosBig(rate, 1000, 500, 200, 0), 6100n);
    assert.equal(costMicros(rate, 1, 0, 0, 0), 2);
    assert.equal(costMicros(null, 1000, 1000, 0, 0), 0);
  });

  it('one rule: one floor of the summed products per priced set, exact past 2^53; reservations round up', () => {
    const odd: RateEntry = {
      model: '*',
      tier: '*',
      input_micros_per_mtok: 3,
      output_micros_per_mtok: 7,
      cache_read_micros_per_mtok: 1,
      cache_creation_micros_per_mtok: 5,
    };
    // 333,333 x 3 + 142,857 x 7 = 999,999 + 999,999 = 1,999,998 per million: 1 micro (not 0 + 0).
    assert.equal(costMicros(odd, 333_333, 142_857, 0, 0), 1);
    assert.equal(costMicros(odd, 333_333, 142_857, 0, 0, true), 2);
    // Counts whose products pass 2^53 (the cost itself does not): the same as BigInt.
    const dear: RateEntry = { ...odd, input_micros_per_mtok: 1_999_999_999, output_micros_per_mtok: 1_234_567_891 };
    const big = [2 ** 40 + 12_345, 2 ** 39 + 999_999, 123, 2 ** 30];
    assert.equal(BigInt(costMicros(dear, big[0]!, big[1]!, big[2]!, big[3]!)), costMicrosBig(dear, big[0]!, big[1]!, big[2]!, big[3]!));
    const huge: RateEntry = { ...odd, input_micros_per_mtok: 9e12 };
    assert.equal(BigInt(costMicros(huge, 1_000_001, 0, 0, 0)), costMicrosBig(huge, 1_000_001, 0, 0, 0));
    // A reservation's price: the ceiling, exact.
    assert.equal(costMicrosAt(3, 7, 333_333, 142_857), 2);
    assert.equal(costMicrosAt(1_000_000, 2_000_000, 10, 5), 20);
    assert.equal(costMicrosAt(0, 0, 10, 5), 0);
  });
});
