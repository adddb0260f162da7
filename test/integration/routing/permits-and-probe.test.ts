// Lane permits are lane-global (every pool, every worker): a burst of 200 never has more than
// max_concurrent in flight at the upstream, and the rest are refused at once (503, Retry-After
// 2: pure at-capacity). A HalfOpen cell admits exactly one probe whatever worker serves it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { chatRaw, memberOf, mockProvider, readStats, startRouting, type RoutingStack } from './routing-stack.js';

describe('permits and the single-flight probe, 2 workers', () => {
  let mock: MockServer;
  /** The upstream of the second member of pool `one` (its own peak). */
  let spare: MockServer;
  let stack: RoutingStack;
  before(async () => {
    mock = await startMockProvider({ port: 0 });
    spare = await startMockProvider({ port: 0 });
    stack = await startRouting(
      (mockUrl) => ({
        providers: { plain: mockProvider(mockUrl), other: mockProvider(spare.url) },
        config: {
          models: { narrow: { provider: 'plain', max_concurrent: 4 }, overflow: { provider: 'other', max_concurrent: 2 }, flaky: { provider: 'plain' } },
          pools: {
            one: { members: [{ model: 'narrow', weight: 10 }, { model: 'overflow' }] },
            two: { members: [{ model: 'narrow' }] },
            probed: { members: [{ model: 'flaky' }], breaker: { consecutive_n: 1, base_cooldown_secs: 1, max_cooldown_secs: 1 } },
          },
        },
      }),
      { workers: 2, mock },
    );
  });
  after(async () => {
    await stack.close();
    await mock?.close();
    await spare.close();
  });

  it('200 concurrent requests over two pools: at most 4 in flight on the lane, the rest move on or get 503 with Retry-After: 2', async () => {
    mock.reset();
    spare.reset();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => chatRaw(stack.gateway, i % 2 === 0 ? 'one' : 'two', 'x [mock latency_ms=400]')));
    const peak = mock.stats().peak_inflight;
    assert.ok(peak <= 4, `peak in flight at the narrow lane's upstream: ${peak}`);
    assert.ok(peak >= 1);
    assert.ok(spare.stats().peak_inflight <= 2, `peak at the overflow lane: ${spare.stats().peak_inflight}`);
    assert.ok(spare.stats().requests >= 1, 'pool one moved on to its other member when the narrow lane was full');
    const ok = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 503);
    assert.equal(ok + refused.length, 200, `unexpected statuses: ${[...new Set(answers.map((a) => a.status))]}`);
    assert.equal(mock.stats().requests + spare.stats().requests, ok, 'a refused request never reached an upstream (queued nowhere)');
    for (const r of refused) assert.equal(r.headers['retry-after'], '2');
    const stats = await readStats(stack.gateway);
    assert.equal(memberOf(stats, 'one', 'narrow').inflight, 0, 'every permit came back');
    assert.equal(memberOf(stats, 'one', 'narrow').available_concurrency, 4);
  });

  it('a HalfOpen cell under concurrent load lets exactly one probe through', async () => {
    assert.equal((await chatRaw(stack.gateway, 'probed', 'x [mock status=500]')).status, 500);
    let cell = memberOf(await readStats(stack.gateway), 'probed', 'flaky');
    assert.equal(cell.breaker_state, 'open');
    assert.equal(cell.trip_count, 1);
    await new Promise((r) => setTimeout(r, 1_300)); // the 1 s (+10%) cooldown runs out
    mock.reset();
    const answers = await Promise.all(Array.from({ length: 40 }, () => chatRaw(stack.gateway, 'probed', 'x [mock latency_ms=300]')));
    assert.equal(mock.stats().requests, 1, 'the mock saw exactly one probe');
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    assert.equal(answers.filter((a) => a.status === 503).length, 39);
    cell = memberOf(await readStats(stack.gateway), 'probed', 'flaky');
    assert.equal(cell.breaker_state, 'closed', 'the probe succeeded');
    assert.equal(cell.streak, 0);
    assert.equal(cell.trip_count, 1);
  });
});
