// Exact admission across workers: with 2 workers and a group cap of 100 requests per minute,
// 400 concurrent requests admit exactly 100, and every refusal names the bucket and carries
// Retry-After. A budget cap holds: each request reserves its estimated cost at admission, and
// these requests' estimates are not low. Spend is recomputed from the stored tokens at every
// check, so a rate-card change re-prices a window.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { inputTokens } from '../../../src/shared/governance/cost-estimate.js';
import { openaiCostEstimator } from '../../../src/shared/protocols/openai/cost-estimate.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';

describe('exact admission in shared memory, two workers', () => {
  let mock: MockServer;
  let g: Governed;
  const witness = new SecretWitness();
  // Many connections, so the requests really are concurrent and spread over both workers.
  const agent = new Agent({ connections: 200, pipelining: 0 });

  before(async () => {
    mock = await startMockProvider({ port: 0, latency_ms: 50 });
    g = await startGoverned(mock.url, witness, {
      workers: 2,
      over: {
        // The global price table matches the group's rate card so GET /usage shows the spend.
        governance: { prices: [{ model: '*', tier: '*', input_micros_per_mtok: 1_000_000_000, output_micros_per_mtok: 1_000_000_000 }] },
      },
    });
  });
  after(async () => {
    await agent.close();
    await stopGoverned(g, witness);
    await mock?.close();
  });

  const body = (stream: boolean): string =>
    JSON.stringify({ model: 'default', stream, stream_options: stream ? { include_usage: true } : undefined, messages: [{ role: 'user', content: 'hi' }] });
  /** The input tokens admission estimates for the body (no max_tokens: no output reserved). */
  const estimated = (stream: boolean): number => inputTokens(Buffer.byteLength(body(stream)), { bytes: 0, parts: 0 }, openaiCostEstimator);

  async function send(key: string, stream = false): Promise<{ status: number; retryAfter: string | undefined; text: string }> {
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: body(stream),
    });
    const text = await res.body.text();
    const ra = res.headers['retry-after'];
    return { status: res.statusCode, retryAfter: typeof ra === 'string' ? ra : undefined, text };
  }

  it('a cap of 100 requests per minute admits exactly 100 of 400 concurrent requests', async () => {
    await g.admin.ok('POST', '/groups', { name: 'cap100', limits: [{ metric: 'requests', window: 'minute', max: 100 }] });
    const key = await g.admin.mint({ name: 'burst', group: 'cap100' });
    // Stay clear of a minute boundary, where a new window would rightly admit more.
    const secInMinute = new Date().getUTCSeconds();
    if (secInMinute > 50) await new Promise((r) => setTimeout(r, (61 - secInMinute) * 1000));
    const results = await Promise.all(Array.from({ length: 400 }, () => send(key.secret)));
    const admitted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429);
    assert.equal(admitted, 100);
    assert.equal(refused.length, 300);
    for (const r of refused) {
      assert.match(r.text, /group:cap100@minute/);
      assert.match(r.text, /rate_limit_error/);
      assert.ok(Number(r.retryAfter) >= 1 && Number(r.retryAfter) <= 60, `Retry-After ${r.retryAfter}`);
    }
    // The group's own read of the window (what the console's bars draw): exactly the admitted.
    const use = await g.admin.ok('GET', '/groups/cap100/usage');
    assert.deepEqual(
      use.limits.map((l: { metric: string; window: string; max: number; used: number; reserved: number }) => [l.metric, l.window, l.max, l.used, l.reserved]),
      [['requests', 'minute', 100, 100, 0]],
    );
    assert.equal((await g.admin.call('GET', '/groups/no-such-group/usage')).status, 404);
  });

  it('a budget cap holds under concurrency: each request reserves its estimate', async () => {
    // Each request costs (12 input + 5 output tokens) x 1000 micros = 17,000 micros, known only
    // at its end; it reserves its input estimate (about 40 tokens: 40,000 micros), more than it
    // costs, so the budget of 100,000 micros is never passed whatever is in flight.
    const COST = 17_000;
    const BUDGET = 100_000;
    const CONCURRENCY = 8;
    assert.ok(estimated(true) * 1000 >= COST, 'the estimate of this body is not low');
    await g.admin.ok('POST', '/groups', {
      name: 'budget-stream',
      rate_card: [
        {
          model: '*',
          tier: '*',
          input_micros_per_mtok: 1_000_000_000,
          output_micros_per_mtok: 1_000_000_000,
          cache_read_micros_per_mtok: 0,
          cache_creation_micros_per_mtok: 0,
        },
      ],
      limits: [{ metric: 'budget', window: 'day', max: BUDGET }],
    });
    const key = await g.admin.mint({ name: 'spender', group: 'budget-stream' });
    let admitted = 0;
    let refused = 0;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 60) {
        next++;
        const r = await send(key.secret, true);
        if (r.status === 200) admitted++;
        else {
          assert.equal(r.status, 429);
          assert.match(r.text, /insufficient_quota/);
          assert.match(r.text, /group:budget-stream@day/);
          refused++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    assert.ok(refused > 0, 'the budget refused some requests');
    // Refusals are quicker than the mock's 50 ms: the concurrent phase may end while the first
    // admitted ones still hold their reservations. One at a time, nothing else in flight, until
    // the budget itself refuses.
    for (let i = 0; i < 10; i++) {
      const r = await send(key.secret, true);
      if (r.status !== 200) break;
      admitted++;
    }
    const spend = admitted * COST;
    assert.ok(spend <= BUDGET, `spend ${spend} stays within the budget ${BUDGET}`);
    assert.ok(spend + estimated(true) * 1000 > BUDGET - COST, `spend ${spend}: the budget filled up`);
    // The metered spend agrees (priced from the same rates at read time).
    await new Promise((r) => setTimeout(r, 1_300));
    const usage = await g.admin.ok('GET', '/usage');
    const row = usage.by_key.find((k: { id: string }) => k.id === key.id);
    assert.equal(row.spend_micros, spend);
    assert.equal(row.requests, admitted);
  });

  /** A rate card pricing every model's input and output tokens at `microsPerMtok`. */
  const card = (microsPerMtok: number): unknown[] => [
    {
      model: '*',
      tier: '*',
      input_micros_per_mtok: microsPerMtok,
      output_micros_per_mtok: microsPerMtok,
      cache_read_micros_per_mtok: 0,
      cache_creation_micros_per_mtok: 0,
    },
  ];
  /** Settle runs at the request's finish: wait until the key's window holds `tokens`. */
  const settledTokens = async (keyId: string, tokens: number): Promise<void> => {
    for (;;) {
      const u = await g.admin.ok('GET', `/keys/${keyId}/usage`);
      if (u.tokens >= tokens) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** Three requests of `key` admitted and settled (17 tokens each), then a fourth refused with 429: its answer. */
  async function threeThenRefused(key: { id: string; secret: string }): Promise<{ text: string }> {
    for (let i = 1; i <= 3; i++) {
      assert.equal((await send(key.secret)).status, 200);
      await settledTokens(key.id, 17 * i);
    }
    const over = await send(key.secret);
    assert.equal(over.status, 429);
    return over;
  }

  it("a rate-card change re-prices the window's stored tokens at the next check", async () => {
    // 12 input + 5 output tokens a request. At 1,000 micros a token a request costs 17,000;
    // at 500, 8,500. Each reserves its estimate E at the price in force (E tokens x 1,000
    // micros, E about 26). The budget, B = 51,000 + E x 1,000 - 1 micros a day, admits three
    // (the third: 34,000 spent + E x 1,000 fits) and refuses the fourth. No fee.
    const reserve = estimated(false) * 1000;
    const budget = 51_000 + reserve - 1;
    assert.ok(34_000 + reserve <= budget);
    await g.admin.ok('POST', '/groups', { name: 'reprice', rate_card: card(1_000_000_000), limits: [{ metric: 'budget', window: 'day', max: budget }] });
    const key = await g.admin.mint({ name: 'repriced', group: 'reprice' });
    // 51,000 spent: the next reservation does not fit.
    const over = await threeThenRefused(key);
    assert.match(over.text, /insufficient_quota/);
    // Half the price: the same 51 tokens now cost 25,500 (and the reservation half), so the next
    // request is admitted.
    await g.admin.ok('PATCH', '/groups/reprice', { rate_card: card(500_000_000) });
    assert.equal((await send(key.secret)).status, 200, 'admitted after the price halved');
    await settledTokens(key.id, 68);
    // Back to the old price: 68 tokens cost 68,000, refused again without any new request.
    assert.ok(68_000 + reserve > budget);
    await g.admin.ok('PATCH', '/groups/reprice', { rate_card: card(1_000_000_000) });
    const again = await send(key.secret);
    assert.equal(again.status, 429);
    assert.match(again.text, /group:reprice@day/);
  });

  it("a rate-card change re-prices a key's own budget window (max_budget_cents) at the next check", async () => {
    // The group only prices; the cap is the key's: 7 cents = 70,000 micros a day, which admits
    // three requests (34,000 spent + the reservation fits) and refuses the fourth (51,000 + it).
    const reserve = estimated(false) * 1000;
    assert.ok(34_000 + reserve <= 70_000 && 51_000 + reserve > 70_000, `reservation ${reserve}`);
    await g.admin.ok('POST', '/groups', { name: 'reprice-key', rate_card: card(1_000_000_000) });
    const key = await g.admin.mint({ name: 'capped-key', group: 'reprice-key', max_budget_cents: 7, budget_period: 'daily' });
    const over = await threeThenRefused(key);
    assert.match(over.text, /max_budget_cents/);
    assert.equal((await g.admin.ok('GET', `/keys/${key.id}/usage`)).spend_cents, 5, '51,000 micros shown as 5 cents');
    await g.admin.ok('PATCH', '/groups/reprice-key', { rate_card: card(500_000_000) });
    assert.equal((await g.admin.ok('GET', `/keys/${key.id}/usage`)).spend_cents, 2, 'the same tokens re-priced: 25,500 micros');
    assert.equal((await send(key.secret)).status, 200, 'admitted after the price halved');
  });
});
