// A breaker's trip_count (and last_trip_at) is the same after a config apply and after a
// restart on sqlite: shared cells keep it across an apply, the store across a restart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { parse } from 'yaml';
import { adminClient } from '../../helpers/admin-client.js';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import { chatRaw, mockProvider } from './routing-stack.js';

interface MemberStatus {
  model: string;
  trip_count: number;
  last_trip_at: number | null;
}

async function poolDetail(gw: RunningGateway, pool: string): Promise<MemberStatus[]> {
  const { data, response } = await adminClient(gw.adminUrl).GET('/pools/{name}', { params: { path: { name: pool } } });
  assert.equal(response.status, 200);
  return data!.members;
}

describe('trip_count survives a config apply and a restart (sqlite)', () => {
  let mock: MockServer;
  const dirs: string[] = [];
  before(async () => {
    mock = await startMockProvider({ port: 0 });
  });
  after(async () => {
    await mock?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps trip_count and last_trip_at', async () => {
    const files = writeConfig(
      {
        auth: { chain: [], admin_auth: [], upstream_credentials: 'own' },
        store: { module: 'sqlite', settings: { path: 'state/gw.db' } },
        governance: { flush_interval_secs: 1 },
        config: { locked: false, overlay: { file: 'overlay.json' } },
        models: { flaky: { provider: 'plain' } },
        pools: { p: { members: [{ model: 'flaky' }], breaker: { consecutive_n: 1 } } },
      },
      { plain: mockProvider(mock.url) },
    );
    dirs.push(files.dir);
    let gw = await startGateway(files);
    try {
      assert.equal((await chatRaw(gw, 'p', 'x [mock status=500]')).status, 500);
      const [tripped] = await poolDetail(gw, 'p');
      assert.equal(tripped!.trip_count, 1);
      assert.ok(tripped!.last_trip_at !== null && tripped!.last_trip_at > 0);

      // A config apply (a new pool added): the cell keeps its trips.
      const doc = parse(readFileSync(files.configPath, 'utf8')) as Record<string, unknown>;
      const pools = { ...(doc.pools as Record<string, unknown>), extra: { members: [{ model: 'flaky' }] } };
      const applied = await adminClient(gw.adminUrl).POST('/config/apply', { body: { config: { ...doc, pools } } as never });
      assert.equal(applied.response.status, 200, JSON.stringify(applied.error));
      const [kept] = await poolDetail(gw, 'p');
      assert.equal(kept!.trip_count, tripped!.trip_count);
      assert.equal(kept!.last_trip_at, tripped!.last_trip_at);
      assert.equal((await poolDetail(gw, 'extra'))[0]!.trip_count, 0, 'another pool has its own cell');
      assert.equal(await gw.stop(), 0);

      // A restart on the same sqlite file.
      gw = await startGateway(files);
      const [restored] = await poolDetail(gw, 'p');
      assert.equal(restored!.trip_count, 1);
      assert.equal(restored!.last_trip_at, tripped!.last_trip_at);
    } finally {
      await gw?.stop();
    }
  });
});
