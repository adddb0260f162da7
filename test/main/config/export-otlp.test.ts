// The `module: otlp` export: its settings are checked at load (every bad one named, the endpoint
// against the metadata denylist, one instance only), header secrets are resolved like every
// secret, and compile fills in the defaults and the traces path.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig } from '../../../src/main/config/load.js';
import { compileConfig } from '../../../src/main/config/compile.js';
import { SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { configDir, minimalConfig, minimalProviders, removeConfigDirs } from './config-dir.js';

after(removeConfigDirs);

async function load(exportSection: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const config = minimalConfig();
  config.export = exportSection;
  const dir = configDir({ 'gateway.yaml': config, 'providers.yaml': minimalProviders() });
  return loadConfig({ configPath: join(dir, 'gateway.yaml'), safeMode: false, purpose: 'boot', env });
}

describe('export module otlp', () => {
  it('compiles with defaults, the traces path and resolved header secrets', async () => {
    const result = await load(
      {
        traces: {
          module: 'otlp',
          headers: { 'x-api-key': { env: 'COLLECTOR_KEY' }, 'x-team': 'blue' },
          settings: { endpoint: 'https://collector.example.com:4318' },
        },
      },
      { COLLECTOR_KEY: 's3cret' },
    );
    assert.deepEqual(result.errors, []);
    const compiled = compileConfig(result, new SlotRegistry(SharedState.create({ holders: 2 })), 0, false);
    assert.deepEqual(compiled.tracing, {
      endpoint: 'https://collector.example.com:4318/v1/traces',
      headers: { 'x-api-key': 's3cret', 'x-team': 'blue' },
      sampleRatio: 1,
      includePrompt: false,
      maxQueueSpans: 2048,
      maxBatchSpans: 512,
      flushIntervalMs: 1000,
      timeoutMs: 10_000,
      serviceName: 'llm-gateway',
    });
    assert.equal(compiled.metrics.traceSpansDropped.length, 2);
  });

  it('is null without an otlp instance', async () => {
    const result = await load({ prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } });
    assert.equal(compileConfig(result, new SlotRegistry(SharedState.create({ holders: 2 })), 0, false).tracing, null);
  });

  it('names every bad setting', async () => {
    const result = await load({
      traces: { module: 'otlp', settings: { endpoint: 'not a url', sample_ratio: 2, max_queue_spans: 0, surprise: true } },
      more: { module: 'otlp', settings: { endpoint: 'http://169.254.169.254/v1/traces', max_batch_spans: 10, max_queue_spans: 5 } },
      prom: { module: 'prometheus', headers: { a: 'b' }, settings: { buffer_seconds: 60 } },
      other: { module: 'statsd' },
    });
    const text = result.errors.join('\n');
    for (const part of [
      'export.traces.settings.endpoint: expected an http(s) URL',
      'export.traces.settings.sample_ratio',
      'export.traces.settings.max_queue_spans',
      'export.traces.settings',
      'surprise',
      'export.more: only one `module: otlp` instance is supported',
      'export.more.settings.endpoint: host 169.254.169.254 is a cloud-metadata endpoint',
      'export.more.settings.max_batch_spans: must not exceed max_queue_spans',
      'export.prom.headers: only a `module: otlp` instance takes headers',
      'export.other.module: unknown export module "statsd"',
    ])
      assert.ok(text.includes(part), `missing "${part}" in:\n${text}`);
  });
});
