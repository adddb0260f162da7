// kill -9 of the gateway on sqlite loses no key, group or revocation (each is committed before
// its admin call answers) and at most one flush interval of usage and counters: the requests
// older than the flush interval (plus the workers' one-second batching) are all there after a
// restart, the ones made just before the kill may be missing, and the group's counters are
// restored so its limit still holds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, writeConfig } from '../../helpers/gateway.js';
import { SecretWitness, startGoverned, type Governed } from './harness.js';
import { chatAs, refusedAs } from './sdk-calls.js';

describe('governance durability on sqlite', () => {
  let mock: MockServer;
  const witness = new SecretWitness();
  const running: Governed[] = [];

  before(async () => {
    mock = await startMockProvider({ port: 0 });
  });
  after(async () => {
    // Both runs share one folder: stop both before removing it.
    for (const g of running) {
      await g.gw.stop();
      witness.check(g.gw.logs());
    }
    if (running[0] !== undefined) rmSync(running[0].files.dir, { recursive: true, force: true });
    await mock?.close();
  });

  it('kill -9 loses no key, group or revocation, and at most one flush interval of usage', async () => {
    const { config, providers } = mockConfig(mock.url);
    const files = writeConfig(
      {
        ...config,
        auth: { chain: ['keys'], admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } },
        store: { module: 'sqlite', settings: { path: 'state/gw.db' } },
        governance: { flush_interval_secs: 1 },
      },
      providers,
    );
    const first = await startGoverned(mock.url, witness, { files });
    running.push(first);
    await first.admin.ok('POST', '/groups', { name: 'five-a-day', limits: [{ metric: 'requests', window: 'day', max: 5 }] });
    const a = await first.admin.mint({ name: 'a', group: 'five-a-day' });
    const b = await first.admin.mint({ name: 'b' });
    const c = await first.admin.mint({ name: 'c' });
    await first.admin.ok('PATCH', `/keys/${a.id}`, { name: 'a-renamed' });
    await first.admin.ok('DELETE', `/keys/${c.id}`);
    for (let i = 0; i < 3; i++) await chatAs('openai', first.gw.url, a.secret);
    // Worker batching (1 s) + the flush interval (1 s), with room to spare.
    await new Promise((r) => setTimeout(r, 3_000));
    // These four may be lost: they are younger than one flush interval at the kill.
    for (let i = 0; i < 4; i++) await chatAs('openai', first.gw.url, b.secret);
    await first.gw.stop('SIGKILL');

    const second = await startGoverned(mock.url, witness, { files });
    running.push(second);
    const keyA = await second.admin.ok('GET', `/keys/${a.id}`);
    assert.equal(keyA.name, 'a-renamed');
    assert.equal(keyA.group, 'five-a-day');
    await second.admin.ok('GET', `/keys/${b.id}`);
    assert.equal((await second.admin.call('GET', `/keys/${c.id}`)).status, 404);
    const group = await second.admin.ok('GET', '/groups/five-a-day');
    assert.deepEqual(group.limits, [{ metric: 'requests', window: 'day', max: 5 }]);
    // The revoked key stays revoked; the others still verify with the same signing key.
    assert.equal((await refusedAs('openai', second.gw.url, c.secret)).status, 401);
    await chatAs('openai', second.gw.url, b.secret);
    // Counters were restored: 3 of the day's 5 were used before the kill.
    await chatAs('openai', second.gw.url, a.secret);
    await chatAs('openai', second.gw.url, a.secret);
    const over = await refusedAs('openai', second.gw.url, a.secret);
    assert.equal(over.status, 429);
    assert.match(over.message, /five-a-day@day/);
    // Usage: A's three requests are all there; of B's four, the bound allows losing all.
    await new Promise((r) => setTimeout(r, 1_500));
    const usage = await second.admin.ok('GET', '/usage');
    const rowA = usage.by_key.find((r: { id: string }) => r.id === a.id);
    const rowB = usage.by_key.find((r: { id: string }) => r.id === b.id);
    assert.equal(rowA.requests, 3 + 2);
    assert.ok(rowB.requests >= 1 && rowB.requests <= 4 + 1, `b: ${rowB.requests}`);
  });
});
