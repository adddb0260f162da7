import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../../../src/main/config/load.js';
import { configDir, minimalConfig, minimalProviders, removeConfigDirs } from './config-dir.js';
import { CA_CERT, EC_CERT, EC_KEY_PKCS8, EC_KEY_SEC1, RSA_CERT, RSA_KEY_PKCS1 } from './tls-fixtures.js';

after(removeConfigDirs);

async function loadTls(tls: Record<string, unknown>, files: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}) {
  const config = minimalConfig();
  config.tls = tls;
  const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': minimalProviders(), ...files });
  return loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env });
}

function assertError(errors: string[], path: string, ...parts: string[]): void {
  assert.ok(
    errors.some((line) => line.startsWith(`${path}: `) && parts.every((part) => line.includes(part))),
    `expected ${path} ${parts.join(' ')} in:\n${errors.join('\n')}`,
  );
}

const GOOD = { 'cert.pem': EC_CERT, 'key.pem': EC_KEY_SEC1, 'ca.pem': CA_CERT };

describe('TLS material', () => {
  it('accepts a SEC1 key with a client CA, and hands the PEM texts over', async () => {
    const result = await loadTls({ cert: 'cert.pem', key: 'key.pem', client_ca: 'ca.pem' }, GOOD);
    assert.deepEqual(result.errors, []);
    assert.equal(result.secrets.get('tls.cert'), EC_CERT.trimEnd());
    assert.equal(result.secrets.get('tls.key'), EC_KEY_SEC1.trimEnd());
    assert.equal(result.secrets.get('tls.client_ca'), CA_CERT.trimEnd());
  });

  it('accepts PKCS#8 and PKCS#1 keys, inline PEM and secret references', async () => {
    assert.deepEqual((await loadTls({ cert: 'cert.pem', key: 'key.pem' }, { 'cert.pem': EC_CERT, 'key.pem': EC_KEY_PKCS8 })).errors, []);
    assert.deepEqual((await loadTls({ cert: 'cert.pem', key: 'key.pem' }, { 'cert.pem': RSA_CERT, 'key.pem': RSA_KEY_PKCS1 })).errors, []);
    assert.deepEqual((await loadTls({ cert: EC_CERT, key: { env: 'TLS_KEY' } }, {}, { TLS_KEY: EC_KEY_SEC1 })).errors, []);
    assert.deepEqual((await loadTls({ cert: { file: 'cert.pem' }, key: { file: 'key.pem' } }, GOOD)).errors, []);
  });

  for (const field of ['cert', 'key', 'client_ca'] as const) {
    const base = { cert: 'cert.pem', key: 'key.pem', client_ca: 'ca.pem' };

    it(`${field}: missing file`, async () => {
      const result = await loadTls({ ...base, [field]: 'absent.pem' }, GOOD);
      assertError(result.errors, `tls.${field}`, 'absent.pem', 'ENOENT');
    });

    it(`${field}: unreadable (a directory)`, async () => {
      const result = await loadTls({ ...base, [field]: 'dir' }, { ...GOOD, 'dir/inside': '' });
      assertError(result.errors, `tls.${field}`, 'cannot read', 'EISDIR');
    });

    it(`${field}: unparseable`, async () => {
      const garbage = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
      const text = field === 'key' ? 'this is not a key\n' : garbage;
      const result = await loadTls({ ...base, [field]: 'bad.pem' }, { ...GOOD, 'bad.pem': text });
      assertError(result.errors, `tls.${field}`, 'cannot parse');
    });
  }

  it('a file without any certificate block', async () => {
    const result = await loadTls({ cert: 'key.pem', key: 'key.pem' }, GOOD);
    assertError(result.errors, 'tls.cert', 'no PEM "CERTIFICATE" block');
  });

  it('a key that does not match the certificate', async () => {
    const result = await loadTls({ cert: 'cert.pem', key: 'rsa.pem' }, { ...GOOD, 'rsa.pem': RSA_KEY_PKCS1 });
    assertError(result.errors, 'tls.key', 'does not match');
  });

  it('cert and key are both required', async () => {
    const result = await loadTls({ cert: 'cert.pem' }, GOOD);
    assertError(result.errors, 'tls.key', 'required');
  });

  it('an unset env reference', async () => {
    const result = await loadTls({ cert: 'cert.pem', key: { env: 'TLS_KEY' } }, GOOD);
    assertError(result.errors, 'tls.key', 'TLS_KEY', 'not set');
  });
});
