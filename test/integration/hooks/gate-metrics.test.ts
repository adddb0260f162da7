// gateway_route_policy_selections_total and gateway_route_policy_rejections_total with gate
// hooks, over two workers: each worker holds its own connection to the gate and counts into
// the same shared-memory slots, so every scrape (whichever worker renders it) shows exactly the
// decisions made: a gate's orders under its name, an abstention under `weighted` (the router's
// pick), a reject under (gate, status), the `first` and `reject` on_error terminals under
// their names, and a fallback chain under the gate that finally decided.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chat, getText, scrape } from '../metrics-harness.js';
import { PROMTOOL, assertPromtoolClean, parseExposition, sampleValue } from '../../helpers/prometheus.js';
import { startRouting, type RoutingStack, alphaLanes, MOSTLY_B } from '../routing/routing-stack.js';
import { HookDir, type HookProcess } from './hook-kit.js';

const SLEEP = { mode: 'sleep', sleep_ms: 3000 };
const GATES: Record<string, Record<string, unknown>> = {
  'g-order': { settings: { order: ['m-c'] } },
  'g-abstain': { settings: { mode: 'abstain' } },
  'g-reject': { settings: { mode: 'reject', status: 451, message: 'not for this tenant' } },
  'g-slow-first': { on_error: 'first', timeout_ms: 150, settings: SLEEP },
  'g-slow-reject': { on_error: 'reject', timeout_ms: 150, settings: SLEEP },
  'g-slow-chain': { on_error: 'g-slow-chain-2', timeout_ms: 150, settings: SLEEP },
  'g-slow-chain-2': { on_error: 'g-order', timeout_ms: 150, settings: SLEEP },
};
/** Requests per pool (p-<gate name without g->), each on a fresh connection. */
const SENT: Record<string, number> = { 'p-order': 12, 'p-abstain': 10, 'p-reject': 8, 'p-slow-first': 3, 'p-slow-reject': 3, 'p-slow-chain': 2 };
const SCRAPES = 8;

describe('route-policy counters with gate hooks, two workers', () => {
  let hookDir: HookDir;
  let stack: RoutingStack;
  let gate: HookProcess;
  const statuses: Record<string, number[]> = {};

  before(async () => {
    hookDir = new HookDir('gw-gate-metrics-');
    gate = await hookDir.socketGate('gate');
    stack = await startRouting(
      (mockUrl) => {
        const hooks: Record<string, unknown> = {};
        for (const [name, def] of Object.entries(GATES)) hooks[name] = { kind: 'gate', socket: gate.target, ...def };
        const pools: Record<string, unknown> = {};
        for (const name of Object.keys(SENT)) pools[name] = { members: MOSTLY_B, hooks: [`g-${name.slice(2)}`] };
        return alphaLanes(mockUrl, ['a', 'b', 'c'], { pools, hooks, export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } });
      },
      { workers: 2 },
    );
    // Sequential: the rejecting and timing-out gates must not be raced by the others.
    for (const [pool, n] of Object.entries(SENT)) {
      statuses[pool] = [];
      for (let i = 0; i < n; i++) statuses[pool]!.push(await chat(stack.gateway.url, '', pool));
    }
  });

  after(async () => {
    await stack?.close();
    await hookDir?.close();
  });

  it('answered as the gates decided (the counts below mean something)', () => {
    assert.deepEqual(new Set(statuses['p-order']), new Set([200]));
    assert.deepEqual(new Set(statuses['p-reject']), new Set([451]));
    assert.deepEqual(new Set(statuses['p-slow-reject']), new Set([503]));
    assert.deepEqual(new Set(statuses['p-slow-first']), new Set([200]));
  });

  it('shows exactly the decisions made, on every scrape, whichever worker renders it', async () => {
    for (let i = 0; i < SCRAPES; i++) {
      const m = await scrape(stack.gateway.url, '');
      const sel = (pool: string, policy: string) => sampleValue(m, 'gateway_route_policy_selections_total', { pool, policy });
      const rej = (pool: string, policy: string, status: string) => sampleValue(m, 'gateway_route_policy_rejections_total', { pool, policy, status });
      const at = `scrape ${i}`;
      assert.equal(sel('p-order', 'g-order'), SENT['p-order'], at);
      assert.equal(sel('p-order', 'weighted'), 0, at);
      assert.equal(sel('p-abstain', 'weighted'), SENT['p-abstain'], `${at}: an abstention is the router's weighted pick`);
      assert.equal(sel('p-abstain', 'g-abstain'), 0, `${at}: the gate's series shows, zero`);
      assert.equal(rej('p-reject', 'g-reject', '451'), SENT['p-reject'], at);
      assert.equal(sel('p-reject', 'weighted'), 0, `${at}: a rejected request is not routed`);
      assert.equal(sel('p-slow-first', 'first'), SENT['p-slow-first'], `${at}: on_error first`);
      assert.equal(sel('p-slow-first', 'g-slow-first'), 0, at);
      assert.equal(rej('p-slow-reject', 'reject', '503'), SENT['p-slow-reject'], `${at}: on_error reject`);
      assert.equal(sel('p-slow-chain', 'g-order'), SENT['p-slow-chain'], `${at}: the chain's last gate decided`);
      assert.equal(sel('p-slow-chain', 'g-slow-chain'), 0, at);
      assert.equal(sel('p-slow-chain', 'g-slow-chain-2'), 0, at);
      // A rejection series shows once it counted: no zero rows for the 100 statuses of each gate.
      assert.equal(m.get('gateway_route_policy_rejections_total')!.metrics.length, 2, at);
    }
  });

  it('passes promtool check metrics', { skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}` }, async () => {
    const answer = await getText(`${stack.gateway.url}/metrics`, null);
    parseExposition(answer.text);
    assert.ok(assertPromtoolClean(answer.text));
  });
});
