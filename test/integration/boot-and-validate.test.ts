// Boot fails loudly on each case the spec lists: exit non-zero with a one-line diagnostic
// naming the culprit. `--validate` checks without binding a port or writing a file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { runCli, writeConfig } from '../helpers/gateway.js';
import { freePort } from '../helpers/ports.js';

const PROVIDERS = { up: { protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', auth: { mode: 'none' } } };

function baseConfig(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    listen: '127.0.0.1:0',
    admin_listen: '127.0.0.1:0',
    auth: { chain: [], admin_auth: [] },
    models: { m: { provider: 'up' } },
    pools: { default: { members: [{ model: 'm', weight: 1 }] } },
    store: { module: 'memory' },
    config: { locked: true },
    ...over,
  };
}

async function bootFails(config: Record<string, unknown>, providers: Record<string, unknown> = PROVIDERS, env: NodeJS.ProcessEnv = {}) {
  const files = writeConfig(config, providers);
  const result = await runCli(['--config', files.configPath], env);
  assert.notEqual(result.code, 0, `boot should fail; stderr:\n${result.stderr}`);
  assert.equal(result.code, 1);
  // Warnings (JSON log lines) may come first; the diagnostic is the one plain line.
  const diagnostic = result.stderr.split('\n').find((line) => line.startsWith('gateway: cannot start: ')) ?? '';
  assert.match(diagnostic, /^gateway: cannot start: /, result.stderr);
  return { ...result, diagnostic, files };
}

describe('boot fails loudly', () => {
  it('on an unset ${VAR}', async () => {
    const r = await bootFails(baseConfig({ public_url: 'http://${GW_TEST_UNSET_HOST}:8080' }), PROVIDERS, { GW_TEST_UNSET_HOST: undefined });
    assert.match(r.diagnostic, /GW_TEST_UNSET_HOST/);
  });

  it('on an unknown provider reference', async () => {
    const r = await bootFails(baseConfig({ models: { m: { provider: 'nobody' } } }));
    assert.match(r.diagnostic, /models\.m\.provider.*nobody/);
  });

  it('on an unknown protocol', async () => {
    const r = await bootFails(baseConfig(), { up: { ...PROVIDERS.up, protocol: 'carrier-pigeon' } });
    assert.match(r.diagnostic, /providers\.up\.protocol/);
    assert.match(r.diagnostic, /carrier-pigeon/);
  });

  it('on an unknown auth mode', async () => {
    const r = await bootFails(baseConfig(), { up: { ...PROVIDERS.up, auth: { mode: 'telepathy' } } });
    assert.match(r.diagnostic, /providers\.up\.auth/);
    assert.match(r.diagnostic, /telepathy/);
  });

  it('on an invalid on_exhausted', async () => {
    const r = await bootFails(baseConfig({ pools: { default: { members: [{ model: 'm' }], on_exhausted: 'panic' } } }));
    assert.match(r.diagnostic, /pools\.default\.on_exhausted/);
  });

  it('on a missing TLS certificate', async () => {
    const r = await bootFails(baseConfig({ tls: { cert: { file: '/nonexistent/cert.pem' }, key: { file: '/nonexistent/key.pem' } } }));
    assert.match(r.diagnostic, /tls\.cert/);
  });

  it('on an unreadable TLS key', async () => {
    const files = writeConfig({}, {});
    const keyDir = join(files.dir, 'key-is-a-directory.pem');
    mkdirSync(keyDir);
    writeFileSync(join(files.dir, 'cert.pem'), SELF_SIGNED_CERT);
    const r = await bootFails(baseConfig({ tls: { cert: { file: join(files.dir, 'cert.pem') }, key: { file: keyDir } } }));
    assert.match(r.diagnostic, /tls\.key/);
  });

  it('on an unparseable TLS CA', async () => {
    const files = writeConfig({}, {});
    writeFileSync(join(files.dir, 'cert.pem'), SELF_SIGNED_CERT);
    writeFileSync(join(files.dir, 'key.pem'), SELF_SIGNED_KEY);
    writeFileSync(join(files.dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n');
    const r = await bootFails(
      baseConfig({
        tls: { cert: { file: join(files.dir, 'cert.pem') }, key: { file: join(files.dir, 'key.pem') }, client_ca: { file: join(files.dir, 'ca.pem') } },
      }),
    );
    assert.match(r.diagnostic, /tls\.client_ca/);
  });

  it('on a data-plane port another process listens on', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
    try {
      const r = await bootFails(baseConfig({ listen: `127.0.0.1:${port}` }));
      assert.match(r.diagnostic, new RegExp(`127\\.0\\.0\\.1:${port}`));
    } finally {
      holder.close();
    }
  });

  it('on a NAT64 or IPv4-compatible spelling of the metadata address (issue 46)', async () => {
    const r = await bootFails(baseConfig(), { up: { ...PROVIDERS.up, base_url: 'http://[64:ff9b::169.254.169.254]/v1' } });
    assert.match(r.diagnostic, /providers\.up\.base_url.*cloud-metadata/);
    const hook = await bootFails(baseConfig({ hooks: { h: { webhook: 'http://[::a9fe:a9fe]/hook' } } }));
    assert.match(hook.diagnostic, /hooks\.h\.webhook.*cloud-metadata/);
  });

  it('on a mutable config with no writable overlay', async () => {
    // Its folder would have to be made under a file (a missing folder under a writable one is made at boot).
    const r = await bootFails(baseConfig({ config: { locked: false, overlay: { file: 'gateway.yaml/state/overlay.json' } } }));
    assert.match(r.diagnostic, /overlay/);
  });
});

describe('gateway --validate', () => {
  it('exits 0 for a valid config, binds no port and writes nothing', async () => {
    const port = await freePort();
    // Hold the data port: a validate that tried to bind it would fail.
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
    try {
      const files = writeConfig(
        baseConfig({
          listen: `127.0.0.1:${port}`,
          store: { module: 'sqlite', settings: { path: 'state/gw.db' } },
          config: { locked: false, overlay: { file: 'overlay.json' } },
        }),
        PROVIDERS,
      );
      const before = readdirSync(files.dir).sort();
      const r = await runCli(['--validate', '--config', files.configPath]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /config OK/);
      assert.deepEqual(readdirSync(files.dir).sort(), before, 'no file was written');
    } finally {
      holder.close();
    }
  });

  it('exits 1 and lists every error', async () => {
    const files = writeConfig(
      baseConfig({ models: { m: { provider: 'nobody' } }, pools: { default: { members: [{ model: 'ghost' }], on_exhausted: 'panic' } } }),
      PROVIDERS,
    );
    const r = await runCli(['--validate', '--config', files.configPath]);
    assert.equal(r.code, 1);
    const out = r.stdout + r.stderr;
    assert.match(out, /nobody/);
    assert.match(out, /ghost/);
    assert.match(out, /on_exhausted/);
  });

  it('reports an unset ${VAR} in a note instead of failing', async () => {
    const files = writeConfig(baseConfig({ public_url: 'http://${GW_TEST_UNSET_VALIDATE}:8080' }), PROVIDERS);
    const r = await runCli(['--validate', '--config', files.configPath], { GW_TEST_UNSET_VALIDATE: undefined });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /GW_TEST_UNSET_VALIDATE/);
  });

  it('exits 1 on every IPv6 spelling that carries the metadata address (issue 46)', async () => {
    for (const host of ['[::a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]']) {
      const files = writeConfig(baseConfig(), { up: { ...PROVIDERS.up, base_url: `http://${host}/v1` } });
      const r = await runCli(['--validate', '--config', files.configPath]);
      assert.equal(r.code, 1, `${host}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, /cloud-metadata/);
    }
  });

  it('prints the metadata denylist', async () => {
    const files = writeConfig(baseConfig({ security: { blocked_metadata_hosts: ['meta.internal.example'] } }), PROVIDERS);
    const r = await runCli(['--print-metadata-blocklist', '--config', files.configPath]);
    assert.equal(r.code, 0);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.includes('169.254.169.254'));
    assert.ok(lines.includes('meta.internal.example'));
  });
});

// A throwaway self-signed certificate and key, made for these tests only (test/fixtures/tls).
const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'tls');
const SELF_SIGNED_CERT = readFileSync(join(FIXTURES, 'cert.pem'), 'utf8');
const SELF_SIGNED_KEY = readFileSync(join(FIXTURES, 'key.pem'), 'utf8');
