// A real Prometheus server (Debian's `prometheus`, installed by scripts/test-prereqs.mjs in CI)
// scrapes the gateway's /metrics with a virtual key every second, and its query API answers
// with the values the gateway counted; the shipped alerting rules pass `promtool check rules`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROMTOOL } from '../helpers/prometheus.js';
import { PROMETHEUS_SKIP, PrometheusServer, type PromSample } from '../helpers/prometheus-server.js';
import { chat, startMetricsStack, type MetricsStack } from './metrics-harness.js';

const REQUESTS = 7;
const RULES = join(process.cwd(), 'deploy/prometheus/alerts.yml');

describe('a real Prometheus server scraping the gateway with a key', { skip: PROMETHEUS_SKIP }, () => {
  let s: MetricsStack;
  const prometheus = new PrometheusServer();

  before(async () => {
    s = await startMetricsStack();
    const key = (await s.g.admin.mint({ name: 'prometheus' })).secret;
    for (let i = 0; i < REQUESTS; i++) assert.equal(await chat(s.g.gw.url, key, 'pool-openai'), 200);
    await prometheus.start(new URL(s.g.gw.url).host, key);
  });

  after(async () => {
    await prometheus.stop();
    await s?.close();
  });

  it('queries the counted requests back through the query API', async () => {
    const expr = 'gateway_requests_total{job="gateway",ingress_protocol="openai",pool="pool-openai",outcome="ok"}';
    let result: PromSample[] = [];
    for (const until = Date.now() + 30_000; Date.now() < until; ) {
      result = await prometheus.query(expr); // [] while it is not listening yet
      if (result.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(result.length, 1, `no series from Prometheus; its log:\n${prometheus.log.slice(-2000)}`);
    assert.equal(Number(result[0]!.value[1]), REQUESTS);
    const up = await prometheus.query('up{job="gateway"}');
    assert.equal(Number(up[0]!.value[1]), 1, 'the scrape with the key succeeds');
    const attempts = await prometheus.query('gateway_upstream_attempts_total{pool="pool-openai",lane="lane-openai"}');
    assert.equal(Number(attempts[0]!.value[1]), REQUESTS);
    const duration = await prometheus.query('gateway_request_duration_seconds_count{ingress_protocol="openai",pool="pool-openai"}');
    assert.equal(Number(duration[0]!.value[1]), REQUESTS);
  });

  it('accepts the shipped alerting rules (promtool check rules)', { skip: existsSync(PROMTOOL) || process.env.CI ? false : 'no promtool' }, () => {
    const run = spawnSync(PROMTOOL, ['check', 'rules', RULES], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  });
});
