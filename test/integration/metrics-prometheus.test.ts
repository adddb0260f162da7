// A real Prometheus server (Debian's `prometheus`, installed by scripts/test-prereqs.mjs in CI)
// scrapes the gateway's /metrics with a virtual key every second, and its query API answers
// with the values the gateway counted; the shipped alerting rules pass `promtool check rules`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../helpers/ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { PROMTOOL } from '../helpers/prometheus.js';
import { chat, startMetricsStack, type MetricsStack } from './metrics-harness.js';

const PROMETHEUS = '/usr/bin/prometheus';
const REQUESTS = 7;
const RULES = join(process.cwd(), 'deploy/prometheus/alerts.yml');
const SKIP = existsSync(PROMETHEUS) || process.env.CI ? false : `prometheus is not installed at ${PROMETHEUS}`;

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(promUrl: string, expr: string): Promise<Sample[]> {
  const res = await request(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.body.json()) as { status: string; data?: { result: Sample[] } };
  return body.status === 'success' ? body.data!.result : [];
}

describe('a real Prometheus server scraping the gateway with a key', { skip: SKIP }, () => {
  let s: MetricsStack;
  let dir = '';
  let prometheus: ChildProcess | null = null;
  let promUrl = '';
  let log = '';

  before(async () => {
    s = await startMetricsStack();
    const key = (await s.g.admin.mint({ name: 'prometheus' })).secret;
    for (let i = 0; i < REQUESTS; i++) assert.equal(await chat(s.g.gw.url, key, 'pool-openai'), 200);
    dir = mkdtempSync(join(tmpdir(), 'gw-prometheus-'));
    writeFileSync(join(dir, 'key'), key);
    const target = new URL(s.g.gw.url).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: gateway',
        '    metrics_path: /metrics',
        '    authorization:',
        '      type: Bearer',
        `      credentials_file: ${join(dir, 'key')}`,
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
  });

  after(async () => {
    if (prometheus !== null && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await s?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('queries the counted requests back through the query API', async () => {
    const expr = 'gateway_requests_total{job="gateway",ingress_protocol="openai",pool="pool-openai",outcome="ok"}';
    let result: Sample[] = [];
    for (const until = Date.now() + 30_000; Date.now() < until; ) {
      try {
        result = await query(promUrl, expr);
      } catch {
        result = []; // not listening yet
      }
      if (result.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(result.length, 1, `no series from Prometheus; its log:\n${log.slice(-2000)}`);
    assert.equal(Number(result[0]!.value[1]), REQUESTS);
    const up = await query(promUrl, 'up{job="gateway"}');
    assert.equal(Number(up[0]!.value[1]), 1, 'the scrape with the key succeeds');
    const attempts = await query(promUrl, 'gateway_upstream_attempts_total{pool="pool-openai",lane="lane-openai"}');
    assert.equal(Number(attempts[0]!.value[1]), REQUESTS);
    const duration = await query(promUrl, 'gateway_request_duration_seconds_count{ingress_protocol="openai",pool="pool-openai"}');
    assert.equal(Number(duration[0]!.value[1]), REQUESTS);
  });

  it('accepts the shipped alerting rules (promtool check rules)', { skip: existsSync(PROMTOOL) || process.env.CI ? false : 'no promtool' }, () => {
    const run = spawnSync(PROMTOOL, ['check', 'rules', RULES], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  });
});
