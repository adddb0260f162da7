// on_exhausted in its three forms (reject/status_503, least_bad, fallback_pool) and both
// Retry-After cases of the 503: the soonest genuine cooldown (whole seconds, rounded up) and
// the 2 s floor when exhaustion is pure at-capacity.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chatRaw, memberOf, mockProvider, readStats, startRouting, type RoutingStack } from './routing-stack.js';

const TRIPS_AT_ONCE = { consecutive_n: 1, base_cooldown_secs: 10, max_cooldown_secs: 10 };

describe('on_exhausted', () => {
  let stack: RoutingStack;
  before(async () => {
    stack = await startRouting((mockUrl) => ({
      providers: { plain: mockProvider(mockUrl) },
      config: {
        models: {
          cooling: { provider: 'plain' },
          full: { provider: 'plain', max_concurrent: 1 },
          worst: { provider: 'plain' },
          primary: { provider: 'plain' },
          spare: { provider: 'plain' },
        },
        pools: {
          reject: { members: [{ model: 'cooling' }], on_exhausted: 'status_503', breaker: TRIPS_AT_ONCE },
          saturated: { members: [{ model: 'full' }] },
          'least-bad': { members: [{ model: 'worst' }], on_exhausted: 'least_bad', breaker: TRIPS_AT_ONCE },
          main: { members: [{ model: 'primary' }], on_exhausted: { fallback_pool: 'backup' }, breaker: TRIPS_AT_ONCE },
          backup: { members: [{ model: 'spare' }] },
        },
      },
    }));
  });
  after(async () => {
    await stack.close();
  });

  it('reject: 503 with Retry-After = the soonest genuine cooldown, rounded up to whole seconds', async () => {
    assert.equal((await chatRaw(stack.gateway, 'reject', 'x [mock status=500]')).status, 500);
    const cell = memberOf(await readStats(stack.gateway), 'reject', 'cooling');
    assert.equal(cell.breaker_state, 'open');
    const answer = await chatRaw(stack.gateway, 'reject');
    assert.equal(answer.status, 503);
    const retryAfter = Number(answer.headers['retry-after']);
    // 10 s +/- 10% jitter, a moment of it already gone; the deadline is rounded up to the
    // shared cell's 100 ms tick, so 11 s of jitter can read 11.05 s and round up to 12.
    assert.ok(retryAfter >= 8 && retryAfter <= 12, `Retry-After ${retryAfter}`);
    assert.ok(Math.abs(retryAfter - cell.cooldown_remaining_seconds) <= 1);
    assert.match(answer.body, /"error"/);
  });

  it('reject: pure at-capacity gives the 2 s floor', async () => {
    const slow = chatRaw(stack.gateway, 'saturated', 'x [mock latency_ms=800]');
    let stats = await readStats(stack.gateway);
    for (let i = 0; i < 40 && memberOf(stats, 'saturated', 'full').inflight === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      stats = await readStats(stack.gateway);
    }
    const cell = memberOf(stats, 'saturated', 'full');
    assert.equal(cell.availability, 'at_capacity');
    assert.equal(cell.recovery_hint_ms, 2000);
    const answer = await chatRaw(stack.gateway, 'saturated');
    assert.equal(answer.status, 503);
    assert.equal(answer.headers['retry-after'], '2');
    assert.equal((await slow).status, 200);
  });

  it('least_bad: the soonest-cooldown member with a free permit serves, and the gateway says so loudly', async () => {
    assert.equal((await chatRaw(stack.gateway, 'least-bad', 'x [mock status=500]')).status, 500);
    assert.equal(memberOf(await readStats(stack.gateway), 'least-bad', 'worst').breaker_state, 'open');
    const answer = await chatRaw(stack.gateway, 'least-bad');
    assert.equal(answer.status, 200);
    await stack.gateway.waitForLog('least_bad');
    const cell = memberOf(await readStats(stack.gateway), 'least-bad', 'worst');
    assert.equal(cell.dispositions.ok, 1);
    assert.equal(cell.breaker_state, 'open', 'least_bad serves without closing the breaker');
  });

  it('fallback_pool: an exhausted pool routes to its fallback', async () => {
    assert.equal((await chatRaw(stack.gateway, 'main', 'x [mock status=500]')).status, 500);
    const answer = await chatRaw(stack.gateway, 'main');
    assert.equal(answer.status, 200);
    const stats = await readStats(stack.gateway);
    assert.equal(memberOf(stats, 'backup', 'spare').dispositions.ok, 1, 'served by the fallback pool');
    assert.equal(memberOf(stats, 'main', 'primary').breaker_state, 'open');
  });
});
