import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listenAddressProblem, parseListenAddress } from '../../../src/shared/config/address.js';
import { formatPath } from '../../../src/shared/config/config-path.js';
import { DeploymentConfig } from '../../../src/shared/config/schema/deployment.js';
import { inputSchema } from '../../../src/shared/config/schema/input-schema.js';
import { ProviderCatalog } from '../../../src/shared/config/schema/providers.js';
import { applyDefaults } from '../../../src/shared/config/schema-defaults.js';
import { schemaIssues } from '../../../src/shared/config/schema-errors.js';
import { findSecretSites } from '../../../src/shared/config/secret-sites.js';

const render = (items: { path: string; message: string }[]) => items.map((item) => `${item.path}: ${item.message}`);

describe('config paths', () => {
  it('formats keys, indexes and non-plain keys', () => {
    assert.equal(formatPath(['pools', 'main', 'members', 1, 'model']), 'pools.main.members[1].model');
    assert.equal(formatPath(['models', 'gpt-4.1', 'provider']), 'models["gpt-4.1"].provider');
  });
});

describe('listen addresses', () => {
  it('parses host:port and bracketed IPv6', () => {
    assert.deepEqual(parseListenAddress('0.0.0.0:8080'), { host: '0.0.0.0', port: 8080 });
    assert.deepEqual(parseListenAddress('[::1]:0'), { host: '::1', port: 0 });
    assert.equal(listenAddressProblem('localhost:1'), undefined);
  });
  it('rejects the rest', () => {
    for (const text of ['8080', 'host', '::1:80', 'a:b', 'a:70000', '']) assert.notEqual(listenAddressProblem(text), undefined, text);
    assert.throws(() => parseListenAddress('nope'), /invalid listen address/);
  });
});

describe('schema defaults and errors', () => {
  it('fills defaults inside records, arrays and unions', () => {
    const config = applyDefaults(DeploymentConfig, { pools: { p: { members: [{ model: 'm' }] } }, models: { m: { provider: 'x' } } }) as DeploymentConfig;
    assert.equal(config.listen, '127.0.0.1:8080');
    assert.equal(config.pools.p!.members[0]!.weight, 1);
    assert.equal(config.pools.p!.breaker.consecutive_n, 3);
    assert.equal(config.models.m!.max_concurrent, 0);
    assert.equal(config.store.module, 'memory');
    assert.deepEqual(schemaIssues(DeploymentConfig, config), []);
    const catalog = applyDefaults(ProviderCatalog, {
      providers: { a: { protocol: 'bedrock', base_url: 'http://h', auth: { mode: 'sigv4', access_key_id: 'a', secret_access_key: 'b' } } },
    }) as any;
    assert.equal(catalog.providers.a.auth.service, 'bedrock');
  });

  it('explains unions by the variant the value meant', () => {
    const catalog = applyDefaults(ProviderCatalog, { providers: { a: { protocol: 'openai', base_url: 'http://h', auth: { mode: 'bearer' } } } });
    assert.deepEqual(render(schemaIssues(ProviderCatalog, catalog)), ['providers.a.auth.key: required setting is missing']);
    const secret = applyDefaults(ProviderCatalog, {
      providers: { a: { protocol: 'openai', base_url: 'http://h', auth: { mode: 'bearer', key: { vault: 'x' } } } },
    });
    assert.deepEqual(render(schemaIssues(ProviderCatalog, secret)), [
      'providers.a.auth.key: expected a secret reference ({ env: VAR }, { file: path } or { module, settings }), got a mapping with keys vault',
    ]);
  });

  it('never echoes a secret-bearing value', () => {
    const catalog = applyDefaults(ProviderCatalog, { providers: { a: { protocol: 'openai', base_url: 'http://h', auth: { mode: 'bearer', key: 12345678 } } } });
    assert.ok(!render(schemaIssues(ProviderCatalog, catalog)).join('\n').includes('12345678'));
  });
});

describe('secret sites', () => {
  it('finds references and literals where the schema marks secrets, not in opaque settings', () => {
    const config = applyDefaults(DeploymentConfig, {
      auth: { admin_token: { env: 'A' } },
      hooks: { h: { settings: { file: '/etc/passwd' } } },
    });
    const catalog = applyDefaults(ProviderCatalog, {
      providers: { p: { protocol: 'openai', base_url: 'http://h', auth: { mode: 'bearer', key: 'literal' } } },
    });
    const sites = [...findSecretSites(DeploymentConfig, config), ...findSecretSites(ProviderCatalog, catalog)];
    assert.deepEqual(
      sites.map((site) => `${site.path} ${site.kind}`),
      ['auth.admin_token ref', 'providers.p.auth.key literal'],
    );
  });
});

describe('inputSchema', () => {
  it('drops defaulted properties from required, keeps the rest', () => {
    const schema = inputSchema(DeploymentConfig) as any;
    assert.equal(schema.required, undefined);
    const pool = Object.values(schema.properties.pools.patternProperties)[0] as any;
    assert.deepEqual(pool.required, ['members']);
    assert.equal(typeof pool.properties.members.description, 'string');
  });
});
