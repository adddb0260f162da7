// SWRR cursors are worker-local and survive a config apply for pools whose members and
// weights did not change (so an apply does not restart every pool's rotation).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../../../src/main/config/load.js';
import { compileConfig } from '../../../src/main/config/compile.js';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { createLogger } from '../../../src/shared/log.js';
import { Runtime } from '../../../src/worker/runtime.js';
import { UpstreamOrigins } from '../../../src/worker/upstream/origins.js';
import { configDir, minimalProviders, removeConfigDirs } from '../../main/config/config-dir.js';

after(removeConfigDirs);

async function compiled(pools: Record<string, unknown>, slots: SlotRegistry, version: number) {
  const config = { listen: '127.0.0.1:8080', models: { m1: { provider: 'up' }, m2: { provider: 'up' } }, pools };
  const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
  const loaded = await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env: {} });
  assert.deepEqual(loaded.errors, []);
  return compileConfig(loaded, slots, version, false);
}

describe('Runtime across a config apply', () => {
  const origins = new UpstreamOrigins();
  after(() => origins.close());

  it('keeps the cursor of an unchanged pool and starts a changed one afresh', async () => {
    const slots = new SlotRegistry(SharedState.create({ holders: 2 }));
    const log = createLogger('test');
    const members = [
      { model: 'm1', weight: 5 },
      { model: 'm2', weight: 1 },
    ];
    const first = new Runtime(await compiled({ same: { members }, changed: { members } }, slots, 0), origins, log);
    const picked = first.pools.get('same')!.cursor.pick({ eligible: () => true });
    assert.equal(picked, 0);
    const second = new Runtime(
      await compiled(
        {
          same: { members },
          changed: {
            members: [
              { model: 'm1', weight: 5 },
              { model: 'm2', weight: 2 },
            ],
          },
          added: { members },
        },
        slots,
        1,
      ),
      origins,
      log,
      first,
    );
    assert.equal(second.pools.get('same')!.cursor, first.pools.get('same')!.cursor, 'the same cursor object carries on');
    assert.notEqual(second.pools.get('changed')!.cursor, first.pools.get('changed')!.cursor);
    assert.deepEqual(second.pools.get('changed')!.cursor.weights, [5, 2]);
    assert.ok(second.pools.get('added') !== undefined);
    first.retire();
    second.retire();
  });
});
