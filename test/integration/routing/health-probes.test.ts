// Health probing scheduled by main: `dead` re-probes only lanes with a tripped cell, `active`
// probes every lane; a successful probe closes every cell of the lane and adds one to its ok.
// The first tick is skipped; a lane whose provider key is missing is never probed.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { eventually } from '../../helpers/clients/stack.js';
import { chatRaw, memberOf, mockProvider, readStats, startRouting, type RoutingStack } from './routing-stack.js';

const TRIP_LONG = { consecutive_n: 1, base_cooldown_secs: 600, max_cooldown_secs: 600 };

function config(mode: string) {
  return (mockUrl: string) => ({
    providers: {
      plain: mockProvider(mockUrl),
      keyless: { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'bearer', key: { env: 'GW_TEST_PROBE_EMPTY_KEY' } } },
    },
    config: {
      health: { mode, interval_secs: 1, timeout_secs: 1 },
      models: {
        sick: { provider: 'plain', upstream_model: 'sick-model' },
        fine: { provider: 'plain', upstream_model: 'fine-model' },
        nokey: { provider: 'keyless' },
      },
      pools: { p: { members: [{ model: 'sick' }], breaker: TRIP_LONG }, q: { members: [{ model: 'sick' }, { model: 'fine' }] } },
    },
  });
}

describe('health probes', () => {
  const stacks: RoutingStack[] = [];
  const mocks: MockServer[] = [];
  after(async () => {
    for (const s of stacks) await s.close();
    for (const m of mocks) await m.close();
  });

  it('dead: only the tripped lane is probed; success closes it and counts one ok', async () => {
    const mock = await startMockProvider({ port: 0 });
    mocks.push(mock);
    const stack = await startRouting(config('dead'), { mock, env: { GW_TEST_PROBE_EMPTY_KEY: '' } });
    stacks.push(stack);
    assert.equal(mock.stats().requests, 0, 'the first tick is skipped');
    assert.equal((await chatRaw(stack.gateway, 'p', 'x [mock status=500]')).status, 500);
    let stats = await readStats(stack.gateway);
    assert.equal(memberOf(stats, 'p', 'sick').breaker_state, 'open');
    const okBefore = memberOf(stats, 'p', 'sick').ok;
    mock.reset();
    assert.ok(await eventually(() => mock.stats().requests >= 1, 10_000), 'a probe was sent');
    assert.equal(mock.stats().last_request?.model, 'sick-model');
    let closed = false;
    for (let i = 0; i < 100 && !closed; i++) {
      stats = await readStats(stack.gateway);
      closed = memberOf(stats, 'p', 'sick').breaker_state === 'closed';
      if (!closed) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(closed, 'the probe closed the cell');
    assert.equal(memberOf(stats, 'p', 'sick').ok, okBefore + 1, 'the lane ok counter rose by one');
    assert.equal(memberOf(stats, 'p', 'sick').trip_count, 1);
    // Nothing is tripped now: the next ticks probe nothing.
    const sent = mock.stats().requests;
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(mock.stats().requests, sent, 'dead mode leaves healthy lanes alone');
  });

  it('active: every lane with a key is probed each interval', async () => {
    const mock = await startMockProvider({ port: 0 });
    mocks.push(mock);
    const stack = await startRouting(config('active'), { mock, env: { GW_TEST_PROBE_EMPTY_KEY: '' } });
    stacks.push(stack);
    assert.ok(await eventually(() => mock.stats().requests >= 4, 10_000), 'two rounds of two lanes');
    const stats = await readStats(stack.gateway);
    const nokey = stats.lanes.find((l) => l.model === 'nokey')!;
    assert.equal(nokey.ok, 0, 'the lane without a key is skipped');
    assert.ok(stats.lanes.find((l) => l.model === 'fine')!.ok >= 1);
  });
});
