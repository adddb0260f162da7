import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScenario, loadScenarios, selectScenarios } from '../../bench/scenario-catalog.js';
import { BODY_BYTES_TARGET } from '../../bench/request-bodies.js';

test('the shipped scenarios load, in order, with 298-byte JSON bodies', async () => {
  const all = await loadScenarios();
  const names = all.map((s) => s.name);
  for (const n of [
    'openai-nonstream',
    'openai-stream-50',
    'openai-stream-500',
    'anthropic-to-openai-nonstream',
    'anthropic-to-openai-stream',
    'added-latency',
  ]) {
    assert.ok(names.includes(n), `missing ${n}`);
  }
  assert.equal(names[0], 'openai-nonstream');
  for (const s of all) {
    if (s.request.body === undefined) continue;
    assert.equal(Buffer.byteLength(s.request.body), BODY_BYTES_TARGET, s.name);
    JSON.parse(s.request.body);
  }
  const stream500 = all.find((s) => s.name === 'openai-stream-500')!;
  assert.match(stream500.request.body ?? '', /\[mock chunks=500\]/);
  assert.equal(JSON.parse(stream500.request.body ?? '').stream, true);
});

test('selectScenarios keeps the order asked for and names the known ones on a typo', async () => {
  const all = await loadScenarios();
  assert.deepEqual(
    selectScenarios(all, ['added-latency', 'openai-nonstream']).map((s) => s.name),
    ['added-latency', 'openai-nonstream'],
  );
  assert.throws(() => selectScenarios(all, ['nope']), /unknown scenario "nope"; known: .*openai-nonstream/);
});

test('named-only scenarios (soak, overload-5x) are left out of the suite and run when named', async () => {
  const all = await loadScenarios();
  const suite = selectScenarios(all, []).map((s) => s.name);
  for (const n of ['soak', 'overload-5x']) {
    assert.ok(!suite.includes(n), `${n} is not in the default suite`);
    assert.deepEqual(
      selectScenarios(all, [n]).map((s) => s.name),
      [n],
    );
  }
  assert.ok(suite.includes('openai-nonstream'));
});

test('checkScenario names the file and the bad field', () => {
  const good = { name: 'x-y', title: 't', kind: 'throughput', request: { method: 'POST', path: '/v1/x' }, targets: ['mock'], connections: 64, durationSecs: 5 };
  assert.equal(checkScenario(good, 'x.js').name, 'x-y');
  assert.throws(() => checkScenario({ ...good, name: 'Bad Name' }, 'x.js'), /bench\/scenarios\/x\.js: name/);
  assert.throws(() => checkScenario({ ...good, targets: ['envoy'] }, 'x.js'), /unknown target "envoy"/);
  assert.throws(() => checkScenario({ ...good, durationSecs: 2.5 }, 'x.js'), /durationSecs/);
  assert.throws(() => checkScenario({ ...good, request: { method: 'POST', path: 'v1' } }, 'x.js'), /request\.path/);
});

test('a group name selects its scenarios: cross-pairs is the 30 (ingress, lane) pairs', async () => {
  const { loadScenarios: load, selectScenarios: select } = await import('../../bench/scenario-catalog.js');
  const all = await load();
  const pairs = select(all, ['cross-pairs']);
  assert.equal(pairs.length, 30);
  assert.equal(new Set(pairs.map((s) => `${s.cell!.row}>${s.cell!.column}`)).size, 30);
  for (const s of pairs) {
    assert.notEqual(s.cell!.row, s.cell!.column);
    // Every pair of an ingress shares its baseline group, which runs the baseline in two pairs.
    assert.equal(s.baselineGroup, `cross-${s.cell!.row}`, s.name);
    const withBaseline = pairs.filter((x) => x.baselineGroup === s.baselineGroup && x.targets.includes('baseline'));
    assert.equal(withBaseline.length, 2, s.name);
  }
});

test('--governed: a scenario gains the bench key and the governed config on top of its own; governed ones stay', async () => {
  const { governedVariant, BENCH_SECRET } = await import('../../bench/governed-gateway.js');
  const all = await loadScenarios();
  const byName = new Map(all.map((s) => [s.name, s]));
  const plain = governedVariant(byName.get('anthropic-to-openai-stream')!);
  assert.equal(plain.request.headers?.authorization, `Bearer ${BENCH_SECRET}`);
  assert.equal(plain.request.headers?.['anthropic-version'], '2023-06-01');
  assert.equal(plain.sharedGateway, 'governed', 'the scenarios of the plain gateway share one governed gateway');
  const files = {
    gateway: { models: {}, pools: {} } as Record<string, unknown>,
    providers: { providers: { mock: { base_url: 'http://127.0.0.1:1/v1' } } } as Record<string, unknown>,
  };
  plain.gatewayConfig!(files);
  assert.deepEqual((files.gateway.auth as { chain: string[] }).chain, ['keys']);
  // A scenario with a config of its own keeps it (cross-pairs: a lane per protocol) and its own gateway key.
  const pair = governedVariant(byName.get('cross-anthropic-to-openai')!);
  assert.equal(pair.sharedGateway, 'cross-pairs');
  const pairFiles = {
    gateway: { models: {}, pools: {} } as Record<string, unknown>,
    providers: { providers: { mock: { base_url: 'http://127.0.0.1:1/v1' } } } as Record<string, unknown>,
  };
  pair.gatewayConfig!(pairFiles);
  assert.ok('pool-openai' in (pairFiles.gateway.pools as object));
  assert.deepEqual((pairFiles.gateway.auth as { chain: string[] }).chain, ['keys']);
  for (const n of ['openai-nonstream-governed', 'openai-nonstream-oidc', 'admission-keys-1k', 'openai-nonstream-store-sqlite']) {
    assert.equal(governedVariant(byName.get(n)!), byName.get(n), `${n} sets up its own auth`);
  }
});

test('the idle-spin group is six named-only rows: spin off and on at 1 and 64 connections and at a moderate rate, each on row against its off row', async () => {
  const all = await loadScenarios();
  const rows = selectScenarios(all, ['idle-spin']);
  assert.deepEqual(
    rows.map((s) => s.name),
    ['idle-spin-off-1', 'idle-spin-on-1', 'idle-spin-off-64', 'idle-spin-on-64', 'idle-spin-off-rate', 'idle-spin-on-rate'],
  );
  assert.ok(!selectScenarios(all, []).some((s) => s.group === 'idle-spin'), 'not in the default suite');
  for (const s of rows) {
    const files = { gateway: { advanced: { worker_threads: 1 } } as Record<string, unknown>, providers: {} };
    s.gatewayConfig!(files);
    assert.deepEqual(files.gateway.advanced, { worker_threads: 1, idle_spin_us: s.name.includes('-on-') ? 1000 : 0 }, s.name);
    if (s.name.includes('-on-')) assert.equal(s.reference, s.name.replace('-on-', '-off-'));
  }
  assert.match(rows[4]!.request.body ?? '', /\[mock latency_ms=20\]/);
});

test("the traced rows export to the mock's OTLP sink at ratio 1 and 0.01, against openai-nonstream", async () => {
  const all = await loadScenarios();
  const rows = selectScenarios(all, ['openai-nonstream-traced-1', 'openai-nonstream-traced-001']);
  assert.deepEqual(
    rows.map((s) => s.reference),
    ['openai-nonstream', 'openai-nonstream'],
  );
  const ratios = rows.map((s) => {
    const files = { gateway: {} as Record<string, unknown>, providers: { providers: { mock: { base_url: 'http://127.0.0.1:9999/v1' } } } };
    s.gatewayConfig!(files);
    const traces = (files.gateway.export as { traces: { module: string; settings: { endpoint: string; sample_ratio: number } } }).traces;
    assert.equal(traces.module, 'otlp');
    assert.equal(traces.settings.endpoint, 'http://127.0.0.1:9999/v1/traces');
    return traces.settings.sample_ratio;
  });
  assert.deepEqual(ratios, [1, 0.01]);
  assert.ok(!selectScenarios(all, []).some((s) => s.name.startsWith('openai-nonstream-traced')), 'named only');
});
