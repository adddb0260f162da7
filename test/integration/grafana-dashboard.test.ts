// The shipped Grafana dashboard (deploy/grafana/gateway.json) against a real Prometheus that
// scrapes a gateway under load: every panel's every query, with the dashboard's variables as
// Grafana would fill them ($pool = All, $__rate_interval), runs through Prometheus's HTTP API
// and returns data; the pool variable's label_values() query lists the pools. The load mixes
// failovers, a breaker trip, streams, and a group with a budget and a rate card (spend, budget
// left, keys by spend).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { PROMETHEUS_SKIP, PrometheusServer } from '../helpers/prometheus-server.js';
import { chat, startMetricsStack, type MetricsStack } from './metrics-harness.js';

const DASHBOARD = join(process.cwd(), 'deploy/grafana/gateway.json');

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string; refId: string }[];
  panels?: Panel[];
}

/** Every (panel title, query) of the dashboard, rows' nested panels included. */
function dashboardQueries(): { panel: string; expr: string }[] {
  const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  const out: { panel: string; expr: string }[] = [];
  const walk = (panels: Panel[]): void => {
    for (const p of panels) {
      for (const t of p.targets ?? []) out.push({ panel: `${p.title} (${t.refId})`, expr: t.expr });
      walk(p.panels ?? []);
    }
  };
  walk(dash.panels);
  return out;
}

/** The variables as Grafana fills them: every pool (the variable's allValue), a rate window of several scrapes. */
function fill(expr: string): string {
  return expr.replaceAll('$__rate_interval', '15s').replaceAll('$pool', '.*');
}

async function streamChat(url: string, key: string, model: string): Promise<void> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, connection: 'close' },
    body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi [mock chunks=6]' }] }),
  });
  await res.body.text();
}

describe('the Grafana dashboard on a real Prometheus', { skip: PROMETHEUS_SKIP }, () => {
  let s: MetricsStack;
  const prometheus = new PrometheusServer();
  let loading = true;
  let load: Promise<void> = Promise.resolve();

  before(async () => {
    s = await startMetricsStack();
    const scraper = (await s.g.admin.mint({ name: 'prometheus' })).secret;
    await s.g.admin.ok('POST', '/groups', {
      name: 'team-a',
      rate_card: [
        {
          model: 'lane-openai',
          tier: 'default',
          input_micros_per_mtok: 1_000_000_000,
          output_micros_per_mtok: 2_000_000_000,
          cache_read_micros_per_mtok: 0,
          cache_creation_micros_per_mtok: 0,
        },
      ],
      limits: [{ metric: 'budget', window: 'day', max: 1_000_000_000_000 }],
    });
    const keys = await Promise.all([1, 2, 3].map(async (i) => (await s.g.admin.mint({ name: `team-a-${i}`, group: 'team-a', budget_period: 'daily' })).secret));
    const url = s.g.gw.url;
    // Two trips' worth of failures first: the trip pool's breaker opens and stays open.
    for (let i = 0; i < 3; i++) await chat(url, scraper, 'pool-trip');
    await prometheus.start(new URL(url).host, scraper);
    // The load runs until the queries are done: a few requests in flight at all times.
    load = (async () => {
      for (let i = 0; loading; i++) {
        const key = keys[i % keys.length]!;
        await Promise.all([chat(url, key, 'pool-openai'), chat(url, key, 'pool-fo'), streamChat(url, key, 'pool-openai'), chat(url, key, 'pool-down')]);
      }
    })();
  });

  after(async () => {
    loading = false;
    await load.catch(() => undefined);
    await prometheus.stop();
    await s?.close();
  });

  it('has panels for every figure the issue names', () => {
    const exprs = dashboardQueries()
      .map((q) => q.expr)
      .join('\n');
    for (const metric of [
      'gateway_requests_total',
      'gateway_request_duration_seconds_bucket',
      'gateway_time_to_first_token_seconds_bucket',
      'gateway_failovers_total',
      'gateway_breaker_trips_total',
      'gateway_bucket_spend_cents',
      'gateway_bucket_budget_remaining_cents',
      'topk(10, gateway_key_spend_cents)',
    ])
      assert.ok(exprs.includes(metric), metric);
    assert.match(exprs, /histogram_quantile\(0\.5, .*gateway_request_duration_seconds_bucket/);
    assert.match(exprs, /histogram_quantile\(0\.99, .*gateway_time_to_first_token_seconds_bucket/);
  });

  it("runs every panel's query, each returning data", async () => {
    const queries = dashboardQueries();
    assert.ok(queries.length >= 15, `${queries.length} queries`);
    for (const q of queries) assert.equal(await prometheus.queryError(fill(q.expr)).catch(() => null), null, `${q.panel} parses: ${q.expr}`);
    const pending = new Map(queries.map((q) => [q.panel, q]));
    // Rates need two scrapes inside their window, the busy ratio a 5 s sample: poll until all have data.
    for (const until = Date.now() + 60_000; pending.size > 0 && Date.now() < until; ) {
      for (const [panel, q] of pending) if ((await prometheus.query(fill(q.expr))).length > 0) pending.delete(panel);
      if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    assert.deepEqual([...pending.keys()], [], `panels without data; Prometheus log:\n${prometheus.log.slice(-1500)}`);
  });

  it('shows the load it saw: failovers, a trip, spend and budget left, keys by spend', async () => {
    const value = async (expr: string): Promise<number> => Math.max(0, ...(await prometheus.query(expr)).map((r) => Number(r.value[1])));
    assert.ok((await value('sum(gateway_failovers_total{pool="pool-fo"})')) > 0, 'failovers');
    assert.equal(await value('sum(gateway_breaker_trips_total{pool="pool-trip"})'), 1, 'one trip');
    assert.ok((await value('sum by (group) (gateway_bucket_spend_cents{group="team-a"})')) > 0, 'spend');
    const left = await value('min by (group) (gateway_bucket_budget_remaining_cents{group="team-a"})');
    assert.ok(left > 0, `budget left ${left}`);
    const top = await prometheus.query(fill('topk(10, gateway_key_spend_cents)'));
    assert.ok(top.length >= 3, `${top.length} keys`);
    assert.ok((await value('histogram_quantile(0.5, sum by (le) (rate(gateway_time_to_first_token_seconds_bucket[15s])))')) > 0, 'a TTFT p50');
  });

  it("answers the pool variable's label_values() query", async () => {
    const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { templating: { list: { name: string; definition?: string }[] } };
    const pool = dash.templating.list.find((v) => v.name === 'pool')!;
    const m = /^label_values\((\w+), (\w+)\)$/.exec(pool.definition!)!;
    const values = await prometheus.labelValues(m[2]!, m[1]!);
    for (const name of ['pool-openai', 'pool-fo', 'pool-trip']) assert.ok(values.includes(name), `${name} in ${values.join(', ')}`);
  });
});
