// The latency histograms: counted through two workers' views of one shared memory with the
// recording API the request path calls, rendered by either worker (the whole exposition with
// them: test/integration/metrics-exact.test.ts) with the same buckets, sums
// and counts; a series shows once it has counted; promtool accepts the text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { CompiledConfig, CompiledLane, CompiledPool } from '../../../src/shared/config/compiled.js';
import type { DeploymentConfig } from '../../../src/shared/config/schema/deployment.js';
import { attemptDurationSlot, compileMetrics, latencySlots } from '../../../src/main/config/compile-metrics.js';
import { SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';
import { recordAttempt, recordCompletion, recordFirstToken } from '../../../src/worker/metrics/latency-series.js';
import { Registry } from 'prom-client';
import { registerLatency } from '../../../src/worker/metrics/latency.js';
import { PROMTOOL, promtoolCheck } from '../../helpers/prometheus.js';
import { lineValue } from '../../integration/metrics-harness.js';

function setup() {
  const main = SharedState.create({ holders: 3 });
  const registry = new SlotRegistry(main);
  const metrics = compileMetrics({ export: {} } as unknown as DeploymentConfig, registry);
  const lane = {
    name: 'lane-a',
    directLatency: latencySlots(registry, '', 'lane-a'),
    attemptDurationSlot: attemptDurationSlot(registry, 'lane-a'),
  } as unknown as CompiledLane;
  const member = { lane: 0, latency: latencySlots(registry, 'pool-a', 'lane-a') };
  const pool = { name: 'pool-a', members: [member], metrics: metrics.direct, failoverSlots: [] } as unknown as CompiledPool;
  const config = { metrics, pools: [pool], lanes: [lane], hooks: [], auth: { chain: [], upstreamCredentials: 'own' } } as unknown as CompiledConfig;
  const workers = [SharedState.attach(main.buffers(), workerHolder(0)), SharedState.attach(main.buffers(), workerHolder(1))];
  return { config, lane, member, workers, registry };
}

/** The latency families as `shared`'s worker renders them. */
function render(shared: SharedState, config: CompiledConfig): Promise<string> {
  const registry = new Registry();
  registerLatency(registry, { shared, slots: () => config.metrics, config: () => config, nowMs: () => 0 });
  return registry.metrics();
}

const TTFT = 'gateway_time_to_first_token_seconds';
const TPOT = 'gateway_time_per_output_token_seconds';
const RATE = 'gateway_output_tokens_per_second';
const ATTEMPT = 'gateway_upstream_attempt_duration_seconds';
const POOL_A = 'ingress_protocol="anthropic",pool="pool-a",lane="lane-a"';

describe('latency histograms', () => {
  it('add up over two workers, whichever renders', async () => {
    const { config, lane, member, workers } = setup();
    const [w0, w1] = workers as [SharedState, SharedState];
    // Worker 0: a stream, first byte at 40 ms, end at 140 ms, 11 output tokens: 10 ms per token after the first.
    recordFirstToken(w0, member.latency, 'anthropic', 1000, 1040);
    recordCompletion(w0, member.latency, 'anthropic', 1000, 1040, 1140, 11, true);
    recordAttempt(w0, lane.attemptDurationSlot, 1002, 1140);
    // Worker 1: a whole body at 300 ms with 30 tokens: no time per token, 100 tokens/s.
    recordFirstToken(w1, member.latency, 'anthropic', 2000, 2300);
    recordCompletion(w1, member.latency, 'anthropic', 2000, 2300, 2300, 30, false);
    recordAttempt(w1, lane.attemptDurationSlot, 2001, 2300);
    // A failed attempt counts its duration too; a direct route counts under pool "".
    recordAttempt(w1, lane.attemptDurationSlot, 3000, 3600);
    recordFirstToken(w1, lane.directLatency, 'openai', 0, 5);

    const texts = await Promise.all(workers.map((w) => render(w, config)));
    assert.equal(texts[0], texts[1], 'both workers render the same numbers');
    const text = texts[0]!;
    assert.equal(lineValue(text, `${TTFT}_count{${POOL_A}}`), 2);
    assert.equal(lineValue(text, `${TTFT}_sum{${POOL_A}}`), 0.34);
    assert.equal(lineValue(text, `${TTFT}_bucket{${POOL_A},le="0.05"}`), 1);
    assert.equal(lineValue(text, `${TTFT}_bucket{${POOL_A},le="0.5"}`), 2);
    assert.equal(lineValue(text, `${TPOT}_count{${POOL_A}}`), 1, 'only the stream has a time per output token');
    assert.equal(lineValue(text, `${TPOT}_sum{${POOL_A}}`), 0.01);
    assert.equal(lineValue(text, `${RATE}_count{${POOL_A}}`), 2);
    assert.equal(lineValue(text, `${RATE}_sum{${POOL_A}}`), Math.round((100 + 11 / 0.14) * 1000) / 1000, 'kept in thousandths');
    assert.equal(lineValue(text, `${ATTEMPT}_count{lane="lane-a"}`), 3);
    assert.equal(lineValue(text, `${ATTEMPT}_bucket{lane="lane-a",le="0.25"}`), 1);
    assert.equal(lineValue(text, `${ATTEMPT}_bucket{lane="lane-a",le="1"}`), 3);
    assert.equal(lineValue(text, `${TTFT}_count{ingress_protocol="openai",pool="",lane="lane-a"}`), 1);
    assert.ok(text.includes(`# TYPE ${TTFT} histogram\n`));
    assert.ok(text.includes(`# TYPE ${ATTEMPT} histogram\n`));
  });

  it("shows a (protocol, pool, lane) series once it has counted, and every lane's attempt duration", async () => {
    const { config, workers } = setup();
    const text = await render(workers[0]!, config);
    assert.equal(text.split('\n').filter((l) => l.startsWith(TTFT) || l.startsWith(TPOT) || l.startsWith(RATE)).length, 0);
    assert.equal(lineValue(text, `${ATTEMPT}_count{lane="lane-a"}`), 0);
  });

  it('leaves answers without output tokens out of the rates', async () => {
    const { config, member, workers } = setup();
    recordCompletion(workers[0]!, member.latency, 'anthropic', 0, 10, 20, 0, true);
    recordCompletion(workers[0]!, member.latency, 'anthropic', 0, 10, 20, 1, true);
    const text = await render(workers[0]!, config);
    assert.equal(lineValue(text, `${RATE}_count{${POOL_A}}`), 1);
    assert.equal(lineValue(text, `${TPOT}_count{${POOL_A}}`), undefined, 'one token has no time per token after the first');
  });

  it('keeps each series on its slot when compiled again', () => {
    const { registry, member } = setup();
    assert.deepEqual(latencySlots(registry, 'pool-a', 'lane-a'), member.latency);
  });

  it('passes promtool check metrics', { skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}` }, async () => {
    const { config, member, lane, workers } = setup();
    recordFirstToken(workers[0]!, member.latency, 'anthropic', 0, 40);
    recordCompletion(workers[0]!, member.latency, 'anthropic', 0, 40, 140, 11, true);
    recordAttempt(workers[0]!, lane.attemptDurationSlot, 0, 140);
    const text = await render(workers[0]!, config);
    assert.deepEqual(promtoolCheck(text), { code: 0, output: '' });
  });
});
