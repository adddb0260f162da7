// A reservation is given back on every way a request ends, on two workers: an upstream failure,
// a failure that sent nothing upstream (then nothing is charged, not even the fee), a caller
// that goes away (nothing relayed: nothing charged but the fee; part of a stream relayed with no
// usage reported: the estimate of what was relayed), and the death of the worker that held it
// (SIGUSR2 recycles one worker: main gives back what its journal held). After each, a full cap
// admits again.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { inputTokens } from '../../../src/shared/governance/cost-estimate.js';
import { openaiCostEstimator } from '../../../src/shared/protocols/openai/cost-estimate.js';
import { parseExposition, sampleValue } from '../../helpers/prometheus.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';

describe('reservations are released on every path (two workers)', () => {
  let mock: MockServer;
  let g: Governed;
  let n = 0;
  const witness = new SecretWitness();
  const agent = new Agent({ connections: 64, pipelining: 0 });

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    g = await startGoverned(mock.url, witness, {
      workers: 2,
      over: { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } },
      extraModels: {
        'lane-once': { provider: 'mock-openai', upstream_model: 'up-once', max_requests: 1 },
        'lane-fail': { provider: 'mock-openai', upstream_model: 'up-fail' },
      },
      extraPools: {
        'pool-once': { members: [{ model: 'lane-once', weight: 1 }] },
        // Its failures trip only its own breaker cell, not pool-openai's.
        'pool-fail': { members: [{ model: 'lane-fail', weight: 1 }] },
      },
    });
  });
  after(async () => {
    await agent.close();
    await stopGoverned(g, witness);
    await mock?.close();
  });

  const body = (prompt: string, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ model: 'pool-openai', messages: [{ role: 'user', content: prompt }], max_tokens: 5, ...extra });
  /** What admission reserves for the body: its input estimate and its max_tokens. */
  const reserveOf = (text: string): number => inputTokens(Buffer.byteLength(text), { bytes: 0, parts: 0 }, openaiCostEstimator) + 5;

  async function send(key: string, text: string, signal?: AbortSignal): Promise<number> {
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      signal,
      body: text,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    await res.body.dump();
    return res.statusCode;
  }

  /** A group whose day tokens cap holds exactly `fit` reservations of `text`, and a key in it. */
  async function capped(fit: number, text: string, extra: Record<string, unknown> = {}): Promise<{ group: string; key: { id: string; secret: string } }> {
    const group = `release-${++n}`;
    await g.admin.ok('POST', '/groups', { name: group, limits: [{ metric: 'tokens', window: 'day', max: fit * reserveOf(text) }], ...extra });
    return { group, key: await g.admin.mint({ name: group, group }) };
  }

  async function reservedTokens(group: string): Promise<number> {
    const key = await g.admin.mint({ name: `metrics-${group}-${Math.random()}` });
    const res = await request(`${g.gw.url}/metrics`, { headers: { authorization: `Bearer ${key.secret}` } });
    return sampleValue(parseExposition(await res.body.text()), 'gateway_bucket_reserved_tokens', { bucket: `group:${group}@day`, group, window: 'day' }) ?? -1;
  }

  async function eventually(ok: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await ok()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`never: ${what}`);
  }

  /** `count` concurrent requests of `text`: their statuses (0: the connection was lost). */
  async function burst(key: string, text: string, count: number): Promise<number[]> {
    return Promise.all(Array.from({ length: count }, () => send(key, text).catch(() => 0)));
  }

  it('an upstream failure gives the reservation back, and a full cap admits again', async () => {
    const failing = body('[mock status=500] hi', { model: 'pool-fail' });
    const ok = body('[mock latency_ms=400] hi');
    const { group, key } = await capped(3, ok);
    const failed = await burst(key.secret, failing, 6);
    // 500 relayed, 503 once the pool's breaker opened, 429 while the cap was held.
    assert.ok(
      failed.every((s) => s === 500 || s === 503 || s === 429),
      `statuses ${failed}`,
    );
    await eventually(async () => (await reservedTokens(group)) === 0, 'released after the failures');
    // Nothing was used: the cap of three reservations is whole again.
    const served = await burst(key.secret, ok, 8);
    assert.equal(served.filter((s) => s === 200).length, 3, `statuses ${served}`);
  });

  it('a failure that sent nothing upstream charges nothing, not even the fee', async () => {
    const text = body('hi', { model: 'pool-once' });
    const group = `release-${++n}`;
    const card = [
      { model: '*', tier: '*', input_micros_per_mtok: 1e9, output_micros_per_mtok: 1e9, cache_read_micros_per_mtok: 0, cache_creation_micros_per_mtok: 0 },
    ];
    await g.admin.ok('POST', '/groups', {
      name: group,
      per_request_fee_micros: 100,
      rate_card: card,
      limits: [{ metric: 'budget', window: 'day', max: 10_000_000 }],
    });
    const key = await g.admin.mint({ name: group, group });
    assert.equal(await send(key.secret, text), 200, "the lane's one lifetime request");
    const before = await g.admin.ok('GET', `/keys/${key.id}/usage`);
    assert.equal(before.requests, 1);
    // The lane's lifetime budget is spent: 503 exhausted, no attempt dispatched.
    for (let i = 0; i < 3; i++) assert.equal(await send(key.secret, text), 503);
    const afterwards = await g.admin.ok('GET', `/keys/${key.id}/usage`);
    assert.equal(afterwards.requests, 1, 'no fee charged for requests that never went upstream');
    assert.equal(afterwards.spend_cents, before.spend_cents);
  });

  it('a caller that goes away: nothing relayed, nothing charged; the cap admits again', async () => {
    const slow = body('[mock latency_ms=5000] hi');
    const { group, key } = await capped(4, slow);
    const aborts = Array.from({ length: 4 }, () => new AbortController());
    const inflight = aborts.map((a) => send(key.secret, slow, a.signal).catch(() => 0));
    await eventually(async () => (await reservedTokens(group)) === 4 * reserveOf(slow), 'four reservations held');
    assert.equal(await send(key.secret, slow), 429, 'the cap is held by the requests in flight');
    for (const a of aborts) a.abort();
    await Promise.all(inflight);
    await eventually(async () => (await reservedTokens(group)) === 0, 'released after the aborts');
    assert.equal((await g.admin.ok('GET', `/keys/${key.id}/usage`)).tokens, 0);
    const quick = body('[mock latency_ms=400] hi');
    const served = await burst(key.secret, quick, 8);
    assert.equal(served.filter((s) => s === 200).length, Math.floor((4 * reserveOf(slow)) / reserveOf(quick)), `statuses ${served}`);
  });

  it('a stream the caller aborts with no usage reported is charged the estimate of what was relayed', async () => {
    // 200 pieces at 20 a second, no include_usage: the caller reads a few and goes away.
    const text = body('[mock chunks=200 tokens_per_sec=20] hi', { stream: true, max_tokens: 200 });
    const group = `release-${++n}`;
    await g.admin.ok('POST', '/groups', { name: group, limits: [{ metric: 'tokens', window: 'day', max: 100_000 }] });
    const key = await g.admin.mint({ name: group, group });
    const abort = new AbortController();
    const res = await request(`${g.gw.url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      signal: abort.signal,
      body: text,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
    });
    let received = 0;
    await new Promise<void>((resolve) => {
      res.body.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 1500) {
          abort.abort();
          resolve();
        }
      });
      res.body.on('error', () => resolve());
    });
    await eventually(async () => (await reservedTokens(group)) === 0, 'released after the abort');
    const tokens = (await g.admin.ok('GET', `/keys/${key.id}/usage`)).tokens;
    const inputEstimate = reserveOf(text) - 5;
    // The input estimate plus the relayed bytes over 200 bytes a token (openai's stream ratio).
    assert.ok(tokens > inputEstimate, `charged ${tokens} > the input estimate ${inputEstimate}`);
    assert.ok(tokens <= inputEstimate + Math.ceil((received + 4096) / 200), `charged ${tokens} for about ${received} bytes relayed`);
  });

  it('the death of the worker that held it: main gives it back, then a full cap admits again', async () => {
    const slow = body('[mock latency_ms=3000] hi');
    // Ten requests over two workers: the recycled one holds some (all ten on the other: 1 in 1024).
    const fit = 10;
    const { group, key } = await capped(fit, slow);
    const first = burst(key.secret, slow, fit);
    await eventually(async () => (await reservedTokens(group)) === fit * reserveOf(slow), 'the cap is held in flight');
    // SIGUSR2 recycles one worker as a crash would: its requests die. What the worker could not
    // settle on its way out (it ends its requests as caller aborts when it closes its sockets),
    // main gives back from the worker's reservation journal.
    g.gw.proc.kill('SIGUSR2');
    await g.gw.waitForLog('worker restarted and listening', 20_000);
    const statuses = await first;
    const survived = statuses.filter((s) => s === 200).length;
    assert.ok(survived < fit, `the recycled worker held some of the requests (${survived} of ${fit} survived)`);
    await eventually(async () => (await reservedTokens(group)) === 0, 'nothing left reserved');
    // The survivors used 17 tokens each; the recycled worker's requests charged nothing.
    const used = (await g.admin.ok('GET', `/keys/${key.id}/usage`)).tokens;
    assert.equal(used, survived * 17);
    const quick = body('[mock latency_ms=500] hi');
    const room = Math.floor((fit * reserveOf(slow) - used) / reserveOf(quick));
    const served = await burst(key.secret, quick, 2 * fit);
    assert.equal(served.filter((s) => s === 200).length, room, `statuses ${served} (room for ${room})`);
  });
});
