// Every exit of a request passes through finish() once, with its disposition and the breaker
// effect it should have (observed through /stats: the per-(pool, lane) disposition counters,
// the lane tallies and the cell; and through the mock's own counters).
//
// A caller abort BEFORE dispatch (while a cold key is verified) is in
// abort-before-dispatch.test.ts: it needs `auth.chain: [keys]` and a flood to hold the gap open.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { eventually } from '../../helpers/clients/stack.js';
import { chatRaw, memberOf, mockProvider, poolOf, readStats, startRouting, type CellRecord, type RoutingStack, type Stats } from './routing-stack.js';

function finishes(stats: Stats, pool: string): number {
  const p = poolOf(stats, pool);
  const count = (d: Record<string, number>) => Object.values(d).reduce((a, b) => a + b, 0);
  return p.members.reduce((n, m) => n + count(m.dispositions), count(p.unrouted));
}

function assertUntouched(cell: CellRecord): void {
  assert.equal(cell.breaker_state, 'closed');
  assert.equal(cell.streak, 0, 'no breaker move');
  assert.equal(cell.cooldown_remaining_seconds, 0);
  assert.equal(cell.err, 0, 'not a lane failure');
}

describe('each exit of a request ends in one finish(disposition)', () => {
  let stack: RoutingStack;
  before(async () => {
    stack = await startRouting(
      (mockUrl) => {
        const providers = {
          plain: mockProvider(mockUrl),
          anthropic: { protocol: 'anthropic', base_url: mockUrl, auth: { mode: 'none' }, headers: { 'anthropic-version': '2023-06-01' } },
          keyless: { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'bearer', key: { env: 'GW_TEST_ROUTING_EMPTY_KEY' } } },
        };
        const names = ['success', 'pre-byte', 'mid-stream', 'abort', 'client-error', 'budget'];
        const models: Record<string, unknown> = {
          claude: { provider: 'anthropic' },
          keyless: { provider: 'keyless' },
        };
        const pools: Record<string, unknown> = {
          untranslatable: { members: [{ model: 'claude' }] },
          'missing-credential': { members: [{ model: 'keyless' }] },
        };
        for (const name of names) {
          models[`lane-${name}`] = { provider: 'plain', ...(name === 'budget' ? { max_requests: 1 } : {}) };
          pools[name] = { members: [{ model: `lane-${name}` }] };
        }
        return { config: { models, pools }, providers };
      },
      { env: { GW_TEST_ROUTING_EMPTY_KEY: '' } },
    );
  });
  after(async () => {
    await stack.close();
  });

  it('success: ok, counted on the lane', async () => {
    assert.equal((await chatRaw(stack.gateway, 'success')).status, 200);
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'success', 'lane-success');
    assert.equal(cell.dispositions.ok, 1);
    assert.equal(finishes(stats, 'success'), 1);
    assert.equal(cell.ok, 1);
    assert.equal(cell.streak, 0);
    assert.notEqual(cell.latency_ms, null, 'a latency sample');
  });

  it('failure before the first byte: transient_upstream, the breaker moves (short cooldown)', async () => {
    assert.equal((await chatRaw(stack.gateway, 'pre-byte', 'x [mock status=500]')).status, 500);
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'pre-byte', 'lane-pre-byte');
    assert.equal(cell.dispositions.transient_upstream, 1);
    assert.equal(finishes(stats, 'pre-byte'), 1);
    assert.equal(cell.streak, 1);
    assert.equal(cell.err, 1);
    assert.ok(cell.cooldown_remaining_seconds >= 1);
  });

  it('failure after the first byte: transient_upstream, an error event, the breaker moves', async () => {
    const res = await request(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mid-stream',
        stream: true,
        messages: [{ role: 'user', content: 'x [mock chunks=20 tokens_per_sec=400 fault=reset_during]' }],
      }),
    });
    assert.equal(res.statusCode, 200);
    assert.match(await res.body.text(), /data: \{"error":/);
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'mid-stream', 'lane-mid-stream');
    assert.equal(cell.dispositions.transient_upstream, 1);
    assert.equal(finishes(stats, 'mid-stream'), 1);
    assert.equal(cell.streak, 1);
    assert.equal(cell.err, 1);
  });

  it('caller abort after dispatch: caller_abort, upstream cancelled, no breaker move', async () => {
    const before = stack.mock.stats().aborted;
    const controller = new AbortController();
    const pending = request(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'abort', messages: [{ role: 'user', content: 'x [mock latency_ms=3000]' }] }),
      signal: controller.signal,
    });
    assert.ok(await eventually(() => stack.mock.stats().inflight > 0, 5_000), 'the upstream got the request');
    controller.abort();
    await assert.rejects(pending);
    assert.ok(await eventually(() => stack.mock.stats().aborted > before, 5_000), 'the gateway cancelled its upstream request');
    let stats = await readStats(stack.gateway);
    for (let i = 0; i < 40 && finishes(stats, 'abort') === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      stats = await readStats(stack.gateway);
    }
    const cell = memberOf(stats, 'abort', 'lane-abort');
    assert.equal(cell.dispositions.caller_abort, 1);
    assert.equal(finishes(stats, 'abort'), 1);
    assertUntouched(cell);
    assert.equal(cell.inflight, 0, 'the permit came back');
  });

  it('untranslatable request: untranslatable (400), no breaker move', async () => {
    const res = await request(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'untranslatable', messages: [] }),
    });
    assert.equal(res.statusCode, 400);
    await res.body.dump();
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'untranslatable', 'claude');
    assert.equal(cell.dispositions.untranslatable, 1);
    assert.equal(finishes(stats, 'untranslatable'), 1);
    assertUntouched(cell);
  });

  it('missing upstream credential: missing_credential (401), no breaker move, nothing sent', async () => {
    const sent = stack.mock.stats().requests;
    const answer = await chatRaw(stack.gateway, 'missing-credential');
    assert.equal(answer.status, 401);
    assert.match(answer.body, /keyless/);
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'missing-credential', 'keyless');
    assert.equal(cell.dispositions.missing_credential, 1);
    assert.equal(finishes(stats, 'missing-credential'), 1);
    assertUntouched(cell);
    assert.equal(stack.mock.stats().requests, sent);
  });

  it('relayed upstream 4xx: client_error, not a lane failure', async () => {
    const answer = await chatRaw(stack.gateway, 'client-error', 'x [mock status=404]');
    assert.equal(answer.status, 404);
    const stats = await readStats(stack.gateway);
    const cell = memberOf(stats, 'client-error', 'lane-client-error');
    assert.equal(cell.dispositions.client_error, 1);
    assert.equal(finishes(stats, 'client-error'), 1);
    assertUntouched(cell);
  });

  it('no usable member: exhausted (503), counted on the pool with no lane', async () => {
    assert.equal((await chatRaw(stack.gateway, 'budget')).status, 200);
    const answer = await chatRaw(stack.gateway, 'budget');
    assert.equal(answer.status, 503);
    assert.equal(answer.headers['retry-after'], '2');
    const stats = await readStats(stack.gateway);
    assert.equal(poolOf(stats, 'budget').unrouted.exhausted, 1);
    assert.equal(memberOf(stats, 'budget', 'lane-budget').availability, 'budget_exhausted');
    assert.equal(memberOf(stats, 'budget', 'lane-budget').recovery_hint_ms, null);
    assert.equal(finishes(stats, 'budget'), 2);
  });
});
