import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseDurationMs } from '../../../src/shared/config/duration.js';

describe('parseDurationMs', () => {
  it('parses units and compounds', () => {
    assert.equal(parseDurationMs('90d'), 90 * 86_400_000);
    assert.equal(parseDurationMs('12h'), 12 * 3_600_000);
    assert.equal(parseDurationMs('30m'), 30 * 60_000);
    assert.equal(parseDurationMs('15s'), 15_000);
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('1w'), 604_800_000);
    assert.equal(parseDurationMs('1h30m'), 5_400_000);
    assert.equal(parseDurationMs('0s'), 0);
  });

  it('rejects garbage', () => {
    for (const text of ['', '90', 'd', '1.5h', '-1h', '1 h', '1H', '90days', '1h-', 'h1', ' 1h', '99999999999999999999d']) {
      assert.equal(parseDurationMs(text), undefined, text);
    }
  });
});
