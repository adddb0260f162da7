import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayConfigs } from '../../../bench/targets/gateway.js';
import { renderNginxConf } from '../../../bench/targets/nginx.js';

test('the gateway config: mock provider, lane m, pool default, loopback, locked, memory store', () => {
  const { gateway, providers } = gatewayConfigs({ listenPort: 4001, adminPort: 4002, mockUrl: 'http://127.0.0.1:4000', workers: 2 });
  assert.deepEqual(gateway, {
    listen: '127.0.0.1:4001',
    admin_listen: '127.0.0.1:4002',
    providers_file: 'providers.yaml',
    auth: { chain: [] },
    models: { m: { provider: 'mock', upstream_model: 'mock-gpt' } },
    pools: { default: { members: [{ model: 'm', weight: 1 }] } },
    store: { module: 'memory' },
    config: { locked: true },
    advanced: { worker_threads: 2 },
  });
  assert.deepEqual(providers, { providers: { mock: { protocol: 'openai', base_url: 'http://127.0.0.1:4000/v1', auth: { mode: 'none' } } } });
});

test('the nginx conf: loopback listen, N workers, keepalive upstream, no buffering, all paths in the prefix', () => {
  const conf = renderNginxConf({ prefix: '/tmp/b/nginx', listenPort: 5001, upstream: '127.0.0.1:5000', workers: 1 });
  assert.match(conf, /^worker_processes 1;$/m);
  assert.match(conf, /^daemon off;$/m);
  assert.match(conf, /listen 127\.0\.0\.1:5001/);
  assert.match(conf, /server 127\.0\.0\.1:5000;\s+keepalive \d+;/);
  assert.match(conf, /proxy_http_version 1\.1;/);
  assert.match(conf, /proxy_set_header Connection "";/);
  assert.match(conf, /proxy_buffering off;/);
  for (const m of conf.matchAll(/(?:_path|pid|error_log) (\S+)/g)) assert.ok(m[1]!.startsWith('/tmp/b/nginx/'), m[0]);
});
