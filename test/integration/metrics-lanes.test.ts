// Each lane gauge agrees with GET /stats read at the same moment: with a breaker tripped (a
// pool over a mock that answers 503) and a lane saturated (max_concurrent requests held open
// by the mock), every (pool, lane) cell and every lane-default cell shows the same state,
// availability, in-flight count and free permits in both, and the same recovery hint up to the
// time that passed between the two reads. Open auth chain: /stats refuses under a non-empty one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import type { GatewayFiles, RunningGateway } from '../helpers/gateway.js';
import { startStack, type Stack } from '../helpers/clients/stack.js';
import { parseExposition, sampleValue, type ParsedFamily } from '../helpers/prometheus.js';
import { EXPORT, TRIP_AFTER } from './metrics-harness.js';

const SLOTS = 2;
const STATE = { closed: 0, half_open: 1, open: 2 } as Record<string, number>;

interface CellView {
  model: string;
  availability: string;
  recovery_hint_ms: number | null;
  breaker_state: string;
  inflight: number;
  available_concurrency?: number | null;
  free_slots?: number | null;
}

interface StatsView {
  lanes: CellView[];
  pools: Array<{ name: string; members: CellView[] }>;
}

async function get(url: string): Promise<string> {
  const res = await request(url, { headers: { connection: 'close' } });
  const text = await res.body.text();
  assert.equal(res.statusCode, 200, text);
  return text;
}

function post(url: string, model: string, prompt: string, signal?: AbortSignal): Promise<number> {
  return request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
    signal,
  }).then(async (res) => {
    await res.body.text();
    return res.statusCode;
  });
}

describe('lane gauges agree with /stats', () => {
  let stack: Stack;
  let good: MockServer;
  let bad: MockServer;
  let gw: RunningGateway;
  let files: GatewayFiles;
  const held = new AbortController();
  let holding: Array<Promise<unknown>> = [];

  before(async () => {
    bad = await startMockProvider({ port: 0, status: 503 });
    stack = await startStack({
      workers: 2,
      over: EXPORT,
      extraProviders: { 'mock-bad': { protocol: 'openai', base_url: `${bad.url}/v1`, auth: { mode: 'none' } } },
      extraModels: {
        'lane-bad': { provider: 'mock-bad', upstream_model: 'up-bad' },
        'lane-narrow': { provider: 'mock-openai', upstream_model: 'up-narrow', max_concurrent: SLOTS },
      },
      extraPools: {
        'pool-trip': { members: [{ model: 'lane-bad', weight: 1 }], breaker: { trip: 'consecutive', consecutive_n: TRIP_AFTER } },
        'pool-narrow': {
          members: [
            { model: 'lane-narrow', weight: 1 },
            { model: 'lane-bad', weight: 1 },
          ],
          breaker: { trip: 'consecutive', consecutive_n: 1000 },
        },
      },
    });
    ({ mock: good, gateway: gw, files } = stack);
    for (let i = 0; i < TRIP_AFTER; i++) assert.equal(await post(gw.url, 'pool-trip', 'fail'), 503);
    // Saturate lane-narrow: the mock holds each request until the caller leaves.
    holding = [...Array(SLOTS)].map(() => post(gw.url, 'lane-narrow', 'hold [mock fault=hang]', held.signal).catch(() => 0));
    for (const until = Date.now() + 10_000; good.stats().inflight < SLOTS && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    assert.equal(good.stats().inflight, SLOTS);
  });

  after(async () => {
    held.abort();
    await Promise.all(holding);
    await stack?.close();
    await bad?.close();
    if (files !== undefined) rmSync(files.dir, { recursive: true, force: true });
  });

  it('shows the same state, availability, in-flight, permits and hint per cell', async () => {
    const startedMs = Date.now();
    const stats = JSON.parse(await get(`${gw.url}/stats`)) as StatsView;
    const m = parseExposition(await get(`${gw.url}/metrics`));
    const elapsedMs = Date.now() - startedMs;

    const cells: Array<[string, CellView, number | null | undefined]> = [];
    for (const pool of stats.pools) for (const c of pool.members) cells.push([pool.name, c, c.available_concurrency]);
    for (const c of stats.lanes) cells.push(['', c, c.free_slots]);
    assert.ok(cells.length > 0);
    let sawOpen = false;
    let sawFull = false;
    for (const [pool, cell, free] of cells) {
      const labels = { pool, lane: cell.model };
      const at = `${pool}/${cell.model}`;
      assert.equal(sampleValue(m, 'gateway_lane_state', labels), STATE[cell.breaker_state], at);
      assert.equal(sampleValue(m, 'gateway_lane_available', labels), cell.availability === 'available' ? 1 : 0, at);
      assert.equal(sampleValue(m, 'gateway_lane_inflight', labels), cell.inflight, at);
      assert.equal(sampleValue(m, 'gateway_lane_available_permits', labels), free === null || free === undefined ? undefined : free, at);
      const hint = sampleValue(m, 'gateway_lane_recovery_hint_ms', labels)!;
      const statsHint = cell.recovery_hint_ms ?? 0; // null in /stats: no self-recovery, 0 here
      // The hint counts down: read later, it is at most the time between the reads lower.
      assert.ok(hint <= statsHint && hint >= statsHint - elapsedMs - 1, `${at}: hint ${hint} vs /stats ${cell.recovery_hint_ms} (${elapsedMs} ms apart)`);
      if (cell.breaker_state === 'open') sawOpen = true;
      if (cell.availability === 'at_capacity') sawFull = true;
    }
    assert.ok(sawOpen, 'the tripped cell is open');
    assert.ok(sawFull, 'the saturated lane is at capacity');
    assert.equal(sampleValue(m, 'gateway_lane_state', { pool: 'pool-trip', lane: 'lane-bad' }), 2);
    assert.equal(sampleValue(m, 'gateway_lane_available_permits', { pool: '', lane: 'lane-narrow' }), 0);
    assert.equal(sampleValue(m, 'gateway_lane_inflight', { pool: 'pool-narrow', lane: 'lane-narrow' }), SLOTS);
    assert.equal(sampleValue(m, 'gateway_lane_available_permits', { pool: '', lane: 'lane-openai' }), undefined, 'no sample for an unbounded lane');
    assertFamiliesHaveTypes(m);
  });
});

function assertFamiliesHaveTypes(m: Map<string, ParsedFamily>): void {
  for (const name of [
    'gateway_lane_state',
    'gateway_lane_available',
    'gateway_lane_recovery_hint_ms',
    'gateway_lane_inflight',
    'gateway_lane_available_permits',
  ]) {
    assert.equal(m.get(name)?.type, 'GAUGE', name);
  }
}
