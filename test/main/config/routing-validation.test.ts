// Routing settings the config refuses: an error window longer than the shared ring (128 s),
// and (already covered in load.test.ts) fallback pool loops.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../../../src/main/config/load.js';
import { configDir, minimalConfig, minimalProviders, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

async function errorsOf(config: Record<string, unknown>): Promise<string[]> {
  const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
  return (await loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'validate', env: {} })).errors.map(String);
}

describe('routing config validation', () => {
  it('refuses breaker.window_secs above 128 and accepts 128', async () => {
    const config = minimalConfig();
    config.pools.main.breaker = { trip: 'error_rate', window_secs: 129 };
    const errors = await errorsOf(config);
    assert.ok(
      errors.some((e) => e.includes('pools.main.breaker.window_secs')),
      errors.join('\n'),
    );
    config.pools.main.breaker = { trip: 'error_rate', window_secs: 128 };
    assert.deepEqual(await errorsOf(config), []);
  });

  it('accepts failover.attempt_timeout_secs and refuses a non-positive one', async () => {
    const config = minimalConfig();
    config.pools.main.failover = { attempt_timeout_secs: 0.5 };
    assert.deepEqual(await errorsOf(config), []);
    config.pools.main.failover = { attempt_timeout_secs: 0 };
    const errors = await errorsOf(config);
    assert.ok(
      errors.some((e) => e.includes('pools.main.failover.attempt_timeout_secs')),
      errors.join('\n'),
    );
  });
});
