// The /metrics exposition read from shared memory: counts made through Metering (the worker's
// hot-path counting) show up, with every cross-protocol pair present, in text a Prometheus
// parser and promtool accept; the endpoint's mount and access rules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import type { CompiledConfig, CompiledMetrics } from '../../../src/shared/config/compiled.js';
import type { DeploymentConfig } from '../../../src/shared/config/schema/deployment.js';
import { compileMetrics } from '../../../src/main/config/compile-metrics.js';
import { PROTOCOL_NAMES } from '../../../src/shared/model/types.js';
import { SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';
import { Metering } from '../../../src/worker/metering.js';
import type { LaneRuntime } from '../../../src/worker/runtime.js';
import { MetricsExposition } from '../../../src/worker/metrics/exposition.js';
import { MetricsEndpoint, openUnderEmptyChain, type MetricsCaller } from '../../../src/worker/metrics/endpoint.js';
import { PROMTOOL, parseExposition, promtoolCheck, sampleValue } from '../../helpers/prometheus.js';

const LANE = { compiled: { name: 'lane-a' }, provider: { compiled: { name: 'prov-a' } } } as unknown as LaneRuntime;
const CALLER: MetricsCaller = { authorization: '', xApiKey: '' };

function deployment(exportSection: Record<string, unknown>): DeploymentConfig {
  return { export: exportSection } as unknown as DeploymentConfig;
}

function configWith(metrics: CompiledMetrics, chain: string[] = []): CompiledConfig {
  return { metrics, pools: [], lanes: [], hooks: [], auth: { chain, upstreamCredentials: 'own' } } as unknown as CompiledConfig;
}

describe('metrics exposition', () => {
  const main = SharedState.create({ holders: 3 });
  const registry = new SlotRegistry(main);
  const metrics = compileMetrics(deployment({ prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } }), registry);
  // Two workers' views of the same memory: counts from both must add up.
  const workers = [SharedState.attach(main.buffers(), workerHolder(0)), SharedState.attach(main.buffers(), workerHolder(1))];
  const channel = new MessageChannel();
  const meterings = workers.map((shared, id) => new Metering(id, channel.port1, shared, 60_000));
  let text = '';

  before(async () => {
    for (const m of meterings) m.useSeries(metrics);
    meterings[0]!.translated('anthropic', 'openai');
    meterings[1]!.translated('anthropic', 'openai');
    meterings[1]!.translated('anthropic', 'openai');
    meterings[0]!.translated('gemini', 'bedrock');
    meterings[1]!.record('pool', LANE, null, true, Date.now());
    meterings[0]!.record('pool', LANE, null, false, Date.now());
    text = await new MetricsExposition(workers[0]!).render(configWith(metrics));
  });

  after(() => {
    for (const m of meterings) m.stop();
    channel.port1.close();
    channel.port2.close();
  });

  it('shows the shared totals, whichever worker counted', () => {
    const families = parseExposition(text);
    assert.equal(sampleValue(families, 'gateway_translations_total', { from: 'anthropic', to: 'openai' }), 3);
    assert.equal(sampleValue(families, 'gateway_translations_total', { from: 'gemini', to: 'bedrock' }), 1);
    assert.equal(sampleValue(families, 'gateway_billing_truncated_total'), 1);
    assert.equal(families.get('gateway_translations_total')!.type, 'COUNTER');
    assert.equal(families.get('gateway_billing_truncated_total')!.type, 'COUNTER');
  });

  it('shows every cross-protocol pair, zeros included, and no same-protocol pair', () => {
    const samples = parseExposition(text).get('gateway_translations_total')!.metrics;
    assert.equal(samples.length, PROTOCOL_NAMES.length * (PROTOCOL_NAMES.length - 1));
    for (const s of samples) assert.notEqual(s.labels!.from, s.labels!.to);
    assert.equal(sampleValue(parseExposition(text), 'gateway_translations_total', { from: 'openai', to: 'ollama' }), 0);
  });

  it('passes promtool check metrics', { skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}` }, () => {
    const check = promtoolCheck(text)!;
    assert.deepEqual(check, { code: 0, output: '' });
  });

  it('keeps every series on its slot when the config is compiled again', () => {
    const again = compileMetrics(deployment({}), registry);
    assert.deepEqual(again.translations, metrics.translations);
    assert.equal(again.billingTruncated, metrics.billingTruncated);
    assert.equal(new Set([...metrics.translations, metrics.billingTruncated]).size, PROTOCOL_NAMES.length ** 2 + 1);
  });
});

describe('metrics endpoint', () => {
  const main = SharedState.create({ holders: 2 });
  const registry = new SlotRegistry(main);
  const endpoint = new MetricsEndpoint(new MetricsExposition(SharedState.attach(main.buffers(), workerHolder(0))), openUnderEmptyChain);

  it('is not mounted without a prometheus export', () => {
    const metrics = compileMetrics(deployment({ other: { module: 'webhook', settings: {} } }), registry);
    assert.equal(metrics.prometheus, null);
    assert.equal(endpoint.serve(configWith(metrics), CALLER), null);
  });

  it('is mounted by a prometheus export and open under an empty auth chain', async () => {
    const metrics = compileMetrics(deployment({ prom: { module: 'prometheus', settings: { buffer_seconds: 30 } } }), registry);
    assert.deepEqual(metrics.prometheus, { bufferSeconds: 30 });
    const page = await endpoint.serve(configWith(metrics), CALLER)!;
    assert.equal(page.status, 200);
    assert.equal(page.contentType, 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(sampleValue(parseExposition(page.body), 'gateway_billing_truncated_total'), 0);
  });

  it('refuses a caller without a verified key under a non-empty auth chain', async () => {
    const metrics = compileMetrics(deployment({ prom: { module: 'prometheus', settings: { buffer_seconds: 30 } } }), registry);
    const page = await endpoint.serve(configWith(metrics, ['keys']), { authorization: 'Bearer sk-unverified', xApiKey: '' })!;
    assert.equal(page.status, 401);
    assert.doesNotMatch(page.body, /sk-unverified/);
    assert.doesNotMatch(page.body, /gateway_/);
  });
});
