// Breaker state follows a config apply or reload: a cell tripped under consecutive_n 2 closes
// (usable again, no cooldown) once an apply raises consecutive_n past its streak, and counts
// its failures towards the new value; a reload from the edited file does the same. A change
// that still trips the cell leaves it Open.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { adminClient } from '../../helpers/admin-client.js';
import type { GatewayFiles, RunningGateway } from '../../helpers/gateway.js';
import { chatRaw, memberOf, mockProvider, readStats, startRouting, type RoutingStack } from './routing-stack.js';

const FAIL = 'x [mock status=500]';

describe('breaker cells follow new breaker settings', () => {
  let stack: RoutingStack;
  let gw: RunningGateway;
  let files: GatewayFiles;

  before(async () => {
    stack = await startRouting((mockUrl) => ({
      providers: { plain: mockProvider(mockUrl) },
      config: {
        config: { locked: false, overlay: { file: 'overlay.json' } },
        models: { flaky: { provider: 'plain' } },
        pools: { p: { members: [{ model: 'flaky' }], breaker: { consecutive_n: 2, base_cooldown_secs: 60, max_cooldown_secs: 120 } } },
      },
    }));
    ({ gateway: gw, files } = stack);
  });

  after(async () => {
    await stack?.close();
  });

  /** The config file as the gateway reads it, with pool p's breaker changed. */
  function withBreaker(breaker: Record<string, unknown>): Record<string, unknown> {
    const doc = parse(readFileSync(files.configPath, 'utf8')) as { pools: Record<string, { breaker: Record<string, unknown> }> };
    doc.pools.p!.breaker = { ...doc.pools.p!.breaker, ...breaker };
    return doc;
  }

  async function cell() {
    return memberOf(await readStats(gw), 'p', 'flaky');
  }

  it('closes on an apply that raises consecutive_n, then trips at the new value', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await chatRaw(gw, 'p', FAIL)).status, 500);
    let tripped = await cell();
    assert.equal(tripped.breaker_state, 'open');
    assert.equal(tripped.usable, false);
    assert.ok(tripped.cooldown_remaining_seconds > 30, `cooldown ${tripped.cooldown_remaining_seconds}`);
    assert.equal((await chatRaw(gw, 'p')).status, 503, 'exhausted while open');

    // Only the cooldown settings change: the cell still meets consecutive_n 2 and stays Open.
    const same = await adminClient(gw.adminUrl).POST('/config/apply', { body: { config: withBreaker({ base_cooldown_secs: 30 }) } as never });
    assert.equal(same.response.status, 200, JSON.stringify(same.error));
    assert.equal((await cell()).breaker_state, 'open');

    const applied = await adminClient(gw.adminUrl).POST('/config/apply', { body: { config: withBreaker({ consecutive_n: 5 }) } as never });
    assert.equal(applied.response.status, 200, JSON.stringify(applied.error));
    const closed = await cell();
    assert.equal(closed.breaker_state, 'closed');
    assert.equal(closed.usable, true);
    assert.equal(closed.cooldown_remaining_seconds, 0);
    assert.equal(closed.trip_count, 1, 'the trip stays counted');
    assert.equal(closed.streak, 2, 'the streak counts on towards the new five');
    assert.equal((await chatRaw(gw, 'p')).status, 200, 'routed again at once');

    // Five failures in a row now (the success reset the streak) trip it again.
    for (let i = 0; i < 4; i++) assert.equal((await chatRaw(gw, 'p', FAIL)).status, 500);
    assert.equal((await cell()).breaker_state, 'closed');
    assert.equal((await chatRaw(gw, 'p', FAIL)).status, 500);
    tripped = await cell();
    assert.equal(tripped.breaker_state, 'open');
    assert.equal(tripped.trip_count, 2);
  });

  it('closes on a reload of a file that raises consecutive_n', async () => {
    assert.equal((await cell()).breaker_state, 'open');
    writeFileSync(files.configPath, stringify(withBreaker({ consecutive_n: 10 })));
    const reloaded = await adminClient(gw.adminUrl).POST('/config/reload', {});
    assert.equal(reloaded.response.status, 200, JSON.stringify(reloaded.error));
    const closed = await cell();
    assert.equal(closed.breaker_state, 'closed');
    assert.equal(closed.usable, true);
    assert.equal((await chatRaw(gw, 'p')).status, 200);
  });
});
