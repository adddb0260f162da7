// The request counters are exact across two workers: after a known mix of requests (failovers
// from a mock that answers 503, requests that fail on it, a breaker that trips and then
// exhausts its pool, upstream 400s, and governance rejections) every scrape, whichever worker
// renders it, shows exactly the counts the mix implies, the latency histograms included
// (streams paced by the mock give them known lower bounds); /metrics needs a valid key under a
// non-empty auth chain; the text passes promtool.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { PROMTOOL, assertPromtoolClean, sampleValue } from '../helpers/prometheus.js';
import { parseExposition } from '../helpers/prometheus.js';
import { request } from 'undici';
import { TRIP_AFTER, chat, getText, lineValue, startMetricsStack, sumOf, type MetricsStack } from './metrics-harness.js';

const FAILOVER_REQUESTS = 12;
const DOWN_REQUESTS = 4;
const TRIP_REQUESTS = 5;
const CLIENT_ERRORS = 3;
const CAP = 4;
const OVER_CAP = 2;
const SCRAPES = 10;
/** Streams to pool-stream: the mock waits STREAM_LATENCY_MS before its answer starts, then paces STREAM_TOKENS pieces at STREAM_TOKENS_PER_SEC. */
const STREAMS = 4;
const STREAM_TOKENS = 6;
const STREAM_LATENCY_MS = 30;
const STREAM_TOKENS_PER_SEC = 200;

/** One streamed OpenAI chat completion with usage; a fresh connection, so both workers serve some. */
async function streamChat(url: string, key: string, model: string): Promise<string> {
  const prompt = `hi [mock latency_ms=${STREAM_LATENCY_MS} tokens_per_sec=${STREAM_TOKENS_PER_SEC} chunks=${STREAM_TOKENS}]`;
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, connection: 'close' },
    body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: prompt }] }),
  });
  const text = await res.body.text();
  assert.equal(res.statusCode, 200, text);
  return text;
}

/** The spec's metrics table (gateway-spec.md, *Metrics*): name, type, labels. The key gauges'
 * "mint labels" are group and budget_period (docs/metrics.md). */
const SPEC_TABLE: readonly (readonly [string, string, readonly string[]])[] = [
  ['gateway_requests_total', 'counter', ['ingress_protocol', 'pool', 'outcome']],
  ['gateway_upstream_attempts_total', 'counter', ['pool', 'lane']],
  ['gateway_upstream_failures_total', 'counter', ['pool', 'lane', 'disposition']],
  ['gateway_breaker_trips_total', 'counter', ['pool', 'lane']],
  ['gateway_failovers_total', 'counter', ['pool', 'reason']],
  ['gateway_translations_total', 'counter', ['from', 'to']],
  ['gateway_request_duration_seconds', 'histogram', ['ingress_protocol', 'pool']],
  ['gateway_key_spend_cents', 'gauge', ['key', 'group', 'budget_period']],
  ['gateway_key_tokens_total', 'gauge', ['key', 'group', 'budget_period']],
  ['gateway_bucket_spend_cents', 'gauge', ['bucket', 'group', 'window']],
  ['gateway_bucket_budget_remaining_cents', 'gauge', ['bucket', 'group', 'window']],
  ['gateway_bucket_tokens', 'gauge', ['bucket', 'group', 'window', 'model', 'tier']],
  ['gateway_lane_state', 'gauge', ['pool', 'lane']],
  ['gateway_lane_available', 'gauge', ['pool', 'lane']],
  ['gateway_lane_recovery_hint_ms', 'gauge', ['pool', 'lane']],
  ['gateway_lane_inflight', 'gauge', ['pool', 'lane']],
  ['gateway_lane_available_permits', 'gauge', ['pool', 'lane']],
  ['gateway_pool_queued', 'gauge', ['pool']],
  ['gateway_route_policy_selections_total', 'counter', ['pool', 'policy']],
  ['gateway_route_policy_rejections_total', 'counter', ['pool', 'policy', 'status']],
  ['gateway_webhook_logs_dropped_total', 'counter', []],
  ['gateway_file_logs_dropped_total', 'counter', []],
  ['gateway_billing_truncated_total', 'counter', []],
];
/** Families with no sample in this stack: rejections show once a gate counted one
 * (test/integration/hooks/gate-metrics.test.ts), permits only for bounded lanes (metrics-lanes). */
const SHOWN_WHEN_COUNTED = new Set(['gateway_route_policy_rejections_total', 'gateway_lane_available_permits']);

describe('exact request counters over two workers', () => {
  let s: MetricsStack;
  let key = '';
  /** Attempts the bad mock saw while pool-fo was driven: each one is a failover. */
  let failedOver = 0;

  before(async () => {
    s = await startMetricsStack({}, { 'pool-stream': { members: [{ model: 'lane-openai', weight: 1 }] } });
    key = (await s.g.admin.mint({ name: 'metrics-reader' })).secret;
    // The tokens limit makes the group count tokens in its total window (only limited metrics are counted).
    await s.g.admin.ok('POST', '/groups', {
      name: 'capped',
      limits: [
        { metric: 'requests', window: 'total', max: CAP },
        { metric: 'tokens', window: 'total', max: 1_000_000_000 },
        { metric: 'budget', window: 'total', max: 1_000_000_000 },
      ],
    });
    const capped = (await s.g.admin.mint({ name: 'capped-key', group: 'capped', budget_period: 'daily' })).secret;
    const url = s.g.gw.url;

    for (let i = 0; i < FAILOVER_REQUESTS; i++) assert.equal(await chat(url, key, 'pool-fo'), 200);
    failedOver = s.bad.stats().requests;
    assert.equal(s.good.stats().requests, FAILOVER_REQUESTS);
    for (let i = 0; i < DOWN_REQUESTS; i++) assert.equal(await chat(url, key, 'pool-down'), 503);
    const trip: number[] = [];
    for (let i = 0; i < TRIP_REQUESTS; i++) trip.push(await chat(url, key, 'pool-trip'));
    assert.deepEqual(
      trip,
      [...Array(TRIP_REQUESTS)].map(() => 503),
    );
    assert.equal(s.bad.stats().requests, failedOver + DOWN_REQUESTS + TRIP_AFTER, 'the tripped cell sends nothing more');
    for (let i = 0; i < CLIENT_ERRORS; i++) assert.equal(await chat(url, key, 'pool-openai', 'bad [mock status=400]'), 400);
    const capped200: number[] = [];
    for (let i = 0; i < CAP + OVER_CAP; i++) capped200.push(await chat(url, capped, 'pool-openai'));
    assert.deepEqual(capped200, [...Array(CAP)].map(() => 200).concat([...Array(OVER_CAP)].map(() => 429)));
    for (let i = 0; i < STREAMS; i++) assert.ok((await streamChat(url, key, 'pool-stream')).includes('[DONE]'));
  });

  after(async () => {
    await s?.close();
  });

  it('mixes in failovers (the test needs some to mean anything)', () => {
    assert.ok(failedOver > 0 && failedOver < FAILOVER_REQUESTS, `${failedOver} failovers`);
  });

  it('shows the exact counts on every scrape, whichever worker renders it', async () => {
    for (let i = 0; i < SCRAPES; i++) {
      const answer = await getText(`${s.g.gw.url}/metrics`, key);
      assert.equal(answer.status, 200);
      const m = parseExposition(answer.text);
      const at = `scrape ${i}`;
      const requests = (pool: string, outcome: string): number | undefined =>
        sampleValue(m, 'gateway_requests_total', { ingress_protocol: 'openai', pool, outcome });
      assert.equal(requests('pool-fo', 'ok'), FAILOVER_REQUESTS, at);
      assert.equal(requests('pool-down', 'error'), DOWN_REQUESTS, at);
      assert.equal(requests('pool-trip', 'error'), TRIP_AFTER, at);
      assert.equal(requests('pool-trip', 'exhausted'), TRIP_REQUESTS - TRIP_AFTER, at);
      assert.equal(requests('pool-openai', 'ok'), CAP, at);
      assert.equal(requests('pool-openai', 'client_error'), CLIENT_ERRORS + OVER_CAP, at);
      assert.equal(requests('pool-stream', 'ok'), STREAMS, at);
      assert.equal(sumOf(m, 'gateway_requests_total'), FAILOVER_REQUESTS + DOWN_REQUESTS + TRIP_REQUESTS + CLIENT_ERRORS + CAP + OVER_CAP + STREAMS, at);

      const attempts = (pool: string, lane: string): number | undefined => sampleValue(m, 'gateway_upstream_attempts_total', { pool, lane });
      assert.equal(attempts('pool-fo', 'lane-bad'), failedOver, at);
      assert.equal(attempts('pool-fo', 'lane-openai'), FAILOVER_REQUESTS, at);
      assert.equal(attempts('pool-down', 'lane-bad'), DOWN_REQUESTS, at);
      assert.equal(attempts('pool-trip', 'lane-bad'), TRIP_AFTER, at);
      assert.equal(attempts('pool-openai', 'lane-openai'), CLIENT_ERRORS + CAP, at);
      assert.equal(
        sumOf(m, 'gateway_upstream_attempts_total'),
        failedOver + FAILOVER_REQUESTS + DOWN_REQUESTS + TRIP_AFTER + CLIENT_ERRORS + CAP + STREAMS,
        at,
      );

      const failures = (pool: string, disposition: string): number => sumOf(m, 'gateway_upstream_failures_total', { pool, disposition });
      assert.equal(
        sampleValue(m, 'gateway_upstream_failures_total', { pool: 'pool-down', lane: 'lane-bad', disposition: 'transient_upstream' }),
        DOWN_REQUESTS,
        at,
      );
      assert.equal(
        sampleValue(m, 'gateway_upstream_failures_total', { pool: 'pool-trip', lane: 'lane-bad', disposition: 'transient_upstream' }),
        TRIP_AFTER,
        at,
      );
      assert.equal(failures('pool-fo', 'transient_upstream'), 0, `${at}: a failover that then succeeded is not a failed request`);
      assert.equal(sumOf(m, 'gateway_upstream_failures_total'), DOWN_REQUESTS + TRIP_AFTER, at);

      assert.equal(sampleValue(m, 'gateway_failovers_total', { pool: 'pool-fo', reason: 'transient_upstream' }), failedOver, at);
      assert.equal(sumOf(m, 'gateway_failovers_total'), failedOver, at);
      assert.equal(sampleValue(m, 'gateway_breaker_trips_total', { pool: 'pool-trip', lane: 'lane-bad' }), 1, at);
      assert.equal(sumOf(m, 'gateway_breaker_trips_total'), 1, at);

      // Every pool-routed request was ordered by the built-in weighted policy once.
      assert.equal(sampleValue(m, 'gateway_route_policy_selections_total', { pool: 'pool-fo', policy: 'weighted' }), FAILOVER_REQUESTS, at);
      assert.equal(sampleValue(m, 'gateway_route_policy_selections_total', { pool: 'pool-openai', policy: 'weighted' }), CLIENT_ERRORS + CAP, at);
      // The duration histogram counted each request once.
      assert.equal(lineValue(answer.text, 'gateway_request_duration_seconds_count{ingress_protocol="openai",pool="pool-fo"}'), FAILOVER_REQUESTS, at);
      assert.equal(lineValue(answer.text, 'gateway_request_duration_seconds_bucket{ingress_protocol="openai",pool="pool-trip",le="+Inf"}'), TRIP_REQUESTS, at);
      assert.equal(
        lineValue(answer.text, 'gateway_request_duration_window_seconds_count{ingress_protocol="openai",pool="pool-fo"}'),
        FAILOVER_REQUESTS,
        `${at}: all within buffer_seconds`,
      );
      assert.equal(sampleValue(m, 'gateway_pool_queued', { pool: 'pool-fo' }), 0, at);
      assertLatency(answer.text, at);
    }
  });

  /** The latency histograms: one observation per successful answer (or per attempt), on the serving (pool, lane). */
  function assertLatency(text: string, at: string): void {
    const series = (family: string, pool: string, lane: string, suffix: string): number | undefined =>
      lineValue(text, `${family}_${suffix}{ingress_protocol="openai",pool="${pool}",lane="${lane}"}`);
    const ttft = 'gateway_time_to_first_token_seconds';
    const tpot = 'gateway_time_per_output_token_seconds';
    const rate = 'gateway_output_tokens_per_second';
    // Every pool-fo request was answered by lane-openai, after a failover or not; lane-bad answered nothing.
    assert.equal(series(ttft, 'pool-fo', 'lane-openai', 'count'), FAILOVER_REQUESTS, at);
    assert.equal(series(ttft, 'pool-fo', 'lane-bad', 'count'), undefined, `${at}: a lane that answered nothing successfully has no series`);
    assert.equal(series(ttft, 'pool-openai', 'lane-openai', 'count'), CAP, `${at}: neither the upstream 400s nor the refusals`);
    assert.equal(series(ttft, 'pool-stream', 'lane-openai', 'count'), STREAMS, at);
    assert.equal(
      lineValue(text, `${ttft}_bucket{ingress_protocol="openai",pool="pool-stream",lane="lane-openai",le="0.025"}`),
      0,
      `${at}: the mock held its answer ${STREAM_LATENCY_MS} ms`,
    );
    assert.equal(series(rate, 'pool-fo', 'lane-openai', 'count'), FAILOVER_REQUESTS, at);
    assert.equal(series(rate, 'pool-stream', 'lane-openai', 'count'), STREAMS, at);
    // Only streams have a time per output token: the mock paced them 5 ms a token.
    assert.equal(series(tpot, 'pool-stream', 'lane-openai', 'count'), STREAMS, at);
    assert.equal(series(tpot, 'pool-fo', 'lane-openai', 'count'), undefined, at);
    assert.equal(lineValue(text, `${tpot}_bucket{ingress_protocol="openai",pool="pool-stream",lane="lane-openai",le="0.0025"}`), 0, at);
    const attempts = (lane: string): number | undefined => lineValue(text, `gateway_upstream_attempt_duration_seconds_count{lane="${lane}"}`);
    assert.equal(attempts('lane-bad'), failedOver + DOWN_REQUESTS + TRIP_AFTER, at);
    assert.equal(attempts('lane-openai'), FAILOVER_REQUESTS + CLIENT_ERRORS + CAP + STREAMS, at);
  }

  it('shows each key and the capped bucket from the governance counters', async () => {
    const m = parseExposition((await getText(`${s.g.gw.url}/metrics`, key)).text);
    // The bucket's tokens by model (the lane that served them), none left over under model "".
    const spent = sampleValue(m, 'gateway_bucket_tokens', {
      bucket: 'group:capped@total',
      group: 'capped',
      window: 'total',
      model: 'lane-openai',
      tier: 'default',
    });
    assert.ok(spent !== undefined && spent > 0, `capped bucket tokens ${spent}`);
    assert.equal(
      sampleValue(m, 'gateway_bucket_tokens', { bucket: 'group:capped@total', group: 'capped', window: 'total', model: '', tier: 'default' }),
      undefined,
    );
    assert.equal(sumOf(m, 'gateway_bucket_tokens', { bucket: 'group:capped@total' }), spent);
    assert.equal(m.get('gateway_key_spend_cents')?.metrics.length, 2, 'one series per key');
    // Each key is labelled with its id and its mint labels (group, budget_period).
    const keys = (await s.g.admin.ok('GET', '/keys')).items as { id: string; name: string }[];
    const capped = keys.find((k) => k.name === 'capped-key')!;
    const reader = keys.find((k) => k.name === 'metrics-reader')!;
    assert.ok((sampleValue(m, 'gateway_key_tokens_total', { key: capped.id, group: 'capped', budget_period: 'daily' }) ?? 0) > 0);
    assert.equal(
      sampleValue(m, 'gateway_key_tokens_total', { key: capped.id, group: 'capped', budget_period: 'daily' }),
      spent,
      'the only key of the group: the same tokens, counted once',
    );
    assert.notEqual(sampleValue(m, 'gateway_key_spend_cents', { key: capped.id, group: 'capped', budget_period: 'daily' }), undefined);
    const readerGroup = m.get('gateway_key_spend_cents')!.metrics.find((x) => x.labels?.key === reader.id)?.labels;
    assert.equal(readerGroup?.budget_period, 'monthly', 'the default budget_period');
  });

  it("shows every metric of the spec's table with its name, type and labels", async () => {
    const text = (await getText(`${s.g.gw.url}/metrics`, key)).text;
    const m = parseExposition(text);
    assert.equal(SPEC_TABLE.length, 23, 'the spec has 23 metrics');
    for (const [name, type, labels] of SPEC_TABLE) {
      assert.ok(text.includes(`\n# TYPE ${name} ${type}\n`) || text.startsWith(`# HELP ${name} `), `${name} is a ${type}`);
      if (SHOWN_WHEN_COUNTED.has(name)) continue;
      assert.ok((m.get(name)?.metrics.length ?? 0) > 0, `${name} has samples`);
      // The label names of each sample line (a histogram's by its _count lines).
      const sampleName = type === 'histogram' ? `${name}_count` : name;
      const lines = text.split('\n').filter((line) => line.startsWith(`${sampleName}{`) || line.startsWith(`${sampleName} `));
      assert.ok(lines.length > 0, `${sampleName} lines`);
      for (const line of lines) {
        const names = line.startsWith(`${sampleName}{`)
          ? [...line.slice(sampleName.length, line.lastIndexOf('}')).matchAll(/([a-z_]+)="/g)].map((x) => x[1]!)
          : [];
        assert.deepEqual(names.sort(), [...labels].sort(), `${name} labels: ${line}`);
      }
    }
  });

  it('needs a valid key under a non-empty auth chain', async () => {
    assert.equal((await getText(`${s.g.gw.url}/metrics`, null)).status, 401);
    assert.equal((await getText(`${s.g.gw.url}/metrics`, 'not-a-key')).status, 401);
    assert.equal((await getText(`${s.g.gw.url}/metrics`, key)).status, 200);
  });

  it('passes promtool check metrics (exit 0 on every family but the two spec-fixed names, which parse and draw only their name lint)', {
    skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}`,
  }, async () => {
    const answer = await getText(`${s.g.gw.url}/metrics`, key);
    assert.ok(assertPromtoolClean(answer.text));
  });
});
