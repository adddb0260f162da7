// Every shipped config validates: the examples under config/examples/ and config/ itself.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../src/main/config/load.js';
import { configDir, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

// Compiled to dist/test/main/config/: the repository root is four levels up.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLES = join(ROOT, 'config', 'examples');

/** Gateway-level secrets an operator must provide; provider keys are left unset on purpose. */
const ENV = { GATEWAY_SIGNING_KEY: 'signing-key', GATEWAY_ADMIN_TOKEN: 'admin-token', DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' };

describe('config examples validate', () => {
  const names = readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('there are examples', () => assert.ok(names.length >= 8, names.join(', ')));

  for (const name of names) {
    it(name, async () => {
      const result = await loadConfig({ configPath: join(EXAMPLES, name, 'gateway.yaml'), safeMode: false, purpose: 'validate', env: ENV });
      assert.deepEqual(result.errors, []);
      assert.equal(result.ok, true);
    });
  }

  it('the shipped config/gateway.yaml, with its var/ folder present', async () => {
    const dir = configDir({});
    cpSync(join(ROOT, 'config', 'gateway.yaml'), join(dir, 'config', 'gateway.yaml'));
    cpSync(join(ROOT, 'config', 'providers.yaml'), join(dir, 'config', 'providers.yaml'));
    mkdirSync(join(dir, 'var'));
    const result = await loadConfig({ configPath: join(dir, 'config', 'gateway.yaml'), safeMode: false, purpose: 'boot', env: ENV });
    assert.deepEqual(result.errors, []);
    assert.equal(result.overlayPath, join(dir, 'var', 'gateway-overlay.json'));
  });
});
