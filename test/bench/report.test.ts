import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addedLatencyMicros,
  atCeiling,
  baselineRow,
  buildFigures,
  findRow,
  formatMs,
  ratiosTo,
  renderMarkdown,
  versusReference,
  type BenchReport,
  type RowMeasurement,
  type RowResult,
} from '../../bench/report.js';
import type { TargetKind } from '../../bench/scenario.js';

function row(target: TargetKind, rps: number, cpuMicros: number, p50: number, p99: number): RowResult {
  const m: RowMeasurement = {
    requests: rps * 5,
    requestsPerSec: rps,
    latencyMicros: { p50, p99, p999: p99 * 2 },
    errors: 0,
    cpuMicrosPerRequest: cpuMicros,
    cpuPercent: 99,
    peakRssBytes: 64 * 1024 * 1024,
    peakRssLifetime: false,
    coreBusyPercent: { '0': 99.4, '1': 100 },
  };
  return { target, label: target, outcome: 'ok', measurement: m };
}

const mock = row('mock', 100_000, 9, 500, 1_500);
const baseline = row('baseline', 26_000, 38, 2_000, 16_000);
const nginx = row('nginx', 86_000, 11, 700, 1_500);
const gateway = row('gateway', 20_800, 47.5, 2_500, 20_000);
const failed: RowResult = { target: 'gateway', label: 'gateway', outcome: 'failed', reason: 'gateway not built: dist/src/cli.js is missing\nsecond line' };

/** The info of a run with placeholder values, `over` on top. */
function runInfo(over: Partial<BenchReport['info']> = {}): BenchReport['info'] {
  return {
    startedAt: new Date(0),
    commit: 'c',
    machine: 'm',
    versions: 'v',
    pinning: 'p',
    workers: 1,
    warmupSecs: 1,
    repeats: 1,
    loadAverage: '0',
    noiseWarning: null,
    ...over,
  };
}

/** A throughput scenario of the group 'pairs', in the matrix cell at `cell`; `extra` names where its baseline comes from. */
function cellScenario(name: string, cell: { row: string; column: string }, rows: RowResult[], extra: { baselineFrom?: string; baselineGroup?: string } = {}) {
  return {
    name,
    title: name,
    kind: 'throughput' as const,
    method: 'POST',
    path: '/x',
    bodyBytes: 298,
    connections: 64,
    durationSecs: 2,
    rows,
    group: 'pairs',
    cell,
    ...extra,
  };
}

test('ratios divide the row by the reference: req/s and CPU per request', () => {
  const vsBase = ratiosTo(gateway, baseline);
  assert.equal(vsBase.requestsPerSec, 0.8);
  assert.equal(vsBase.cpuPerRequest, 1.25);
  const vsNginx = ratiosTo(gateway, nginx);
  assert.ok(Math.abs((vsNginx.requestsPerSec ?? 0) - 20_800 / 86_000) < 1e-12);
  assert.ok(Math.abs((vsNginx.cpuPerRequest ?? 0) - 47.5 / 11) < 1e-12);
});

test('no ratio when either row did not run', () => {
  assert.deepEqual(ratiosTo(failed, baseline), { requestsPerSec: null, cpuPerRequest: null });
  assert.deepEqual(ratiosTo(gateway, undefined), { requestsPerSec: null, cpuPerRequest: null });
});

test('added latency is the row minus the mock-direct row', () => {
  assert.deepEqual(addedLatencyMicros(gateway, mock), { p50: 2_000, p99: 18_500 });
  assert.equal(addedLatencyMicros(failed, mock), null);
});

test('a proxy within 10% of the mock-direct rate is marked as load-bound', () => {
  assert.equal(atCeiling(row('nginx', 91_000, 11, 1, 1), mock), true);
  assert.equal(atCeiling(nginx, mock), false);
  assert.equal(atCeiling(mock, mock), false);
});

test('formatMs keeps three decimals under 10 ms', () => {
  assert.equal(formatMs(1_512), '1.512');
  assert.equal(formatMs(16_040), '16.04');
});

const report: BenchReport = {
  info: {
    startedAt: new Date(Date.UTC(2025, 10, 22, 14, 5)),
    commit: 'abc1234',
    machine: 'test CPU, 2 usable cores (0,1)',
    versions: 'node v20',
    pinning: 'gateway/baseline/nginx (1 worker) on core 0; mock + wrk (1 thread) on core 1',
    workers: 1,
    warmupSecs: 2,
    repeats: 1,
    loadAverage: '0.10 0.20 0.30',
    noiseWarning: null,
  },
  scenarios: [
    {
      name: 'openai-nonstream',
      title: 'OpenAI chat',
      kind: 'throughput',
      method: 'POST',
      path: '/v1/chat/completions',
      bodyBytes: 298,
      connections: 64,
      durationSecs: 5,
      rows: [mock, baseline, nginx, gateway],
    },
    {
      name: 'added-latency',
      title: 'sequential',
      kind: 'added-latency',
      method: 'POST',
      path: '/v1/chat/completions',
      bodyBytes: 298,
      connections: 1,
      durationSecs: 5,
      rows: [mock, baseline, failed],
    },
  ],
};

test('the markdown states the pinning, the ratios, the ceiling and why a row failed', () => {
  const md = renderMarkdown(report);
  assert.match(md, /^# Bench results, 2025-11-22 14:05 UTC$/m);
  assert.ok(md.includes('- pinning: gateway/baseline/nginx (1 worker) on core 0; mock + wrk (1 thread) on core 1'));
  // Summary line of the throughput scenario: gateway vs baseline and vs nginx.
  assert.match(md, /\| openai-nonstream \| 100,000 \| 26,000 \| 86,000 \| 20,800 \| 0\.80×, 1\.25× \| 0\.24×, 4\.32× \| – \|/);
  // The gateway's own row carries the same ratios; nginx's row is compared to the baseline only.
  assert.match(md, /\| gateway \| 20,800 \| 2\.500 \| 20\.00 \| 40\.00 \| 47\.5 \| 99 \| 64\.0 \| 0 \| 0\.80×, 1\.25× \| 0\.24×, 4\.32× \| c0 99 · c1 100 \|/);
  assert.match(md, /\| nginx \| 86,000 \| 0\.700 \| 1\.500 \| 3\.000 \| 11\.0 \| 99 \| 64\.0 \| 0 \| 3\.31×, 0\.29× \| – \|/);
  assert.ok(md.includes('Ceiling (wrk straight to the mock, same cores): 100,000 req/s.'));
  // Added latency: baseline minus mock; the failed gateway row says why, in the table and in full below it.
  assert.match(md, /\| baseline \| 26,000 \| 2\.000 \| 16\.00 \| 32\.00 \| \+1500 \| \+14500 \|/);
  assert.match(md, /\| gateway \| FAILED: gateway not built: dist\/src\/cli\.js is missing \|/);
  assert.ok(md.includes('```\ngateway not built: dist/src/cli.js is missing\nsecond line\n```'));
});

test('a busy machine is called out in the header', () => {
  assert.doesNotMatch(renderMarkdown(report), /⚠ the machine/);
  const md = renderMarkdown({ ...report, info: { ...report.info, noiseWarning: 'the machine was busy' } });
  assert.match(md, /^- ⚠ the machine was busy$/m);
});

test('rows with errors are flagged, and pipes in reasons do not break the table', () => {
  const bad = row('gateway', 50_000, 20, 1, 1);
  bad.measurement!.errors = 1234;
  const md = renderMarkdown({
    ...report,
    scenarios: [{ ...report.scenarios[0]!, rows: [mock, bad, { target: 'nginx', label: 'nginx', outcome: 'skipped', reason: 'a | b' }] }],
  });
  assert.match(md, /\| ⚠ 1,234 \|/);
  assert.match(md, /\| nginx \| skipped: a \\\| b \|/);
});

test("--compare: the other build's rows are never the reference, and the report shows both builds", () => {
  const other = (rps: number): RowResult => ({ ...row('gateway', rps, 60, 2_500, 30_000), label: 'gateway @ abc1234', compare: true });
  const ours2 = row('gateway', 19_800, 48.5, 2_500, 18_000);
  const s = {
    name: 's',
    title: 't',
    kind: 'throughput' as const,
    method: 'POST',
    path: '/x',
    bodyBytes: 298,
    connections: 64,
    durationSecs: 5,
    rows: [mock, baseline, other(15_000), gateway, ours2, other(16_000)],
  };
  const ours = findRow(s, 'gateway')!;
  assert.equal(ours.compare, undefined);
  assert.deepEqual(ours.repeats, [gateway, ours2]);
  assert.equal(ours.measurement!.requestsPerSec, 20_300);
  const a = buildFigures(s, false)!;
  const b = buildFigures(s, true)!;
  assert.equal(a.rows, 2);
  assert.equal(a.requestsPerSec, 20_300);
  assert.equal(b.requestsPerSec, 15_500);
  assert.ok(Math.abs(b.rateSpread - 1_000 / 15_500) < 1e-12);
  const md = renderMarkdown({
    info: runInfo({ commit: 'def5678', warmupSecs: 2, compare: { ref: 'main', commit: 'abc1234', rounds: 2 } }),
    scenarios: [s],
  });
  assert.match(md, /## This build against abc1234 \(--compare main\)/);
  assert.match(
    md,
    /^- repeats: 1 \(--repeats 1\): one row per target, except the gateway's 2 rows per build \(--compare-rounds\), so no spread is shown but theirs$/m,
  );
  assert.match(md, /\| gateway @ abc1234 \| 15,500 ± 6\.5% \|/);
  assert.match(md, /\| s \| 20,300 ± 4\.9% \| 15,500 ± 6\.5% \| 1\.31× \|/);
  assert.match(md, /gateway @ abc1234/);
});

test('a group of cells renders as a matrix, borrowing the baseline of the scenario named', () => {
  const md = renderMarkdown({
    info: runInfo(),
    scenarios: [
      cellScenario('a-b', { row: 'a', column: 'b' }, [row('baseline', 1000, 10, 1, 2), row('gateway', 600, 20, 1, 2)]),
      cellScenario('a-c', { row: 'a', column: 'c' }, [row('gateway', 400, 20, 1, 2)], { baselineFrom: 'a-b' }),
      cellScenario('b-a', { row: 'b', column: 'a' }, [row('baseline', 2000, 10, 1, 2), row('gateway', 1000, 20, 1, 2)]),
    ],
  });
  assert.match(md, /\| pairs: gateway\/baseline req\/s \(gateway req\/s\) \| a \| b \| c \|/);
  assert.match(md, /\| a \| · \| 0\.60× \(600\) \| 0\.40× \(400\) \|/);
  assert.match(md, /\| b \| 0\.50× \(1,000\) \| · \| · \|/);
  assert.match(md, /Lowest cell: 0\.40×/);
});

test('a baseline group: every cell divides by the median of all the baseline rows its group ran', () => {
  const fromA = { baselineGroup: 'from-a' };
  const report2 = {
    info: runInfo({ repeats: 2 }),
    scenarios: [
      cellScenario(
        'a-b',
        { row: 'a', column: 'b' },
        [repeatOf('baseline', 1, 900, 10, 1, 2), repeatOf('gateway', 1, 600, 20, 1, 2), repeatOf('baseline', 2, 1_000, 10, 1, 2)],
        fromA,
      ),
      cellScenario('a-c', { row: 'a', column: 'c' }, [repeatOf('gateway', 1, 500, 20, 1, 2)], fromA),
      cellScenario(
        'a-d',
        { row: 'a', column: 'd' },
        [repeatOf('baseline', 1, 1_100, 10, 1, 2), repeatOf('gateway', 1, 400, 20, 1, 2), repeatOf('baseline', 2, 1_300, 10, 1, 2)],
        fromA,
      ),
    ],
  };
  // The group's four baseline rows: 900, 1,000, 1,100, 1,300 req/s, median 1,050.
  assert.equal(baselineRow(report2, report2.scenarios[1]!)!.measurement!.requestsPerSec, 1_050);
  const md = renderMarkdown(report2);
  assert.match(md, /\| a \| 0\.57× \(600\) \| 0\.48× \(500\) \| 0\.38× \(400\) \|/);
  assert.match(md, /"vs baseline" divides by the baseline's median over the 4 baseline rows of a-b and a-d \(1,050 ± 38% req\/s\)/);
});

test('a scenario with a reference is compared with its gateway row in the same run', () => {
  const base = { title: 't', kind: 'throughput' as const, method: 'POST', path: '/v1/chat/completions', bodyBytes: 1, connections: 64, durationSecs: 5 };
  const plain = { ...base, name: 'openai-nonstream', rows: [row('gateway', 20_000, 50, 2_500, 10_000)] };
  const gated = { ...base, name: 'openai-nonstream-gate', reference: 'openai-nonstream', rows: [row('gateway', 19_000, 52, 2_580, 10_500)] };
  const alone = { ...base, name: 'openai-nonstream-slow-tap', reference: 'openai-nonstream', rows: [row('gateway', 19_000, 52, 2_580, 10_500)] };
  const v = versusReference(gated, [plain, gated])!;
  assert.deepEqual(v, { reference: 'openai-nonstream', requestsPerSec: 0.95, addedP50Micros: 80, addedP99Micros: 500, p99Ratio: 1.05 });
  assert.equal(versusReference(alone, [alone]), null, 'the reference did not run');
  assert.equal(versusReference(plain, [plain, gated]), null, 'no reference');
  const info = runInfo({ warmupSecs: 2 });
  const md = renderMarkdown({ info, scenarios: [plain, gated] });
  assert.match(md, /Against openai-nonstream in the same run \(gateway rows\): req\/s 0\.95×, added p50 \+80 µs, added p99 \+500 µs \(p99 1\.05×\)/);
  assert.match(md, /0\.95×, \+80 \/ \+500 \(vs openai-nonstream\)/);
  assert.match(renderMarkdown({ info, scenarios: [alone] }), /Run openai-nonstream in the same invocation/);
});

/** The row of one repeat: `row` with its place among its target's repeats. */
function repeatOf(target: TargetKind, repeat: number, rps: number, cpuMicros: number, p50: number, p99: number): RowResult {
  return { ...row(target, rps, cpuMicros, p50, p99), repeat };
}

const info2 = { ...report.info, repeats: 2 };

test('repeats: one line per target with the medians of its repeats, req/s ± spread, ratios from medians', () => {
  // Run order of two repeats: mock, baseline, nginx, gateway, gateway, nginx, baseline, mock.
  const rows = [
    repeatOf('mock', 1, 100_000, 9, 500, 1_500),
    repeatOf('baseline', 1, 25_000, 40, 2_000, 16_000),
    repeatOf('nginx', 1, 84_000, 11, 700, 1_500),
    repeatOf('gateway', 1, 19_000, 50, 2_400, 19_000),
    repeatOf('gateway', 2, 21_000, 46, 2_600, 21_000),
    repeatOf('nginx', 2, 88_000, 11, 700, 1_500),
    repeatOf('baseline', 2, 27_000, 36, 2_000, 16_000),
    repeatOf('mock', 2, 100_000, 9, 500, 1_500),
  ];
  const s = { ...report.scenarios[0]!, rows };
  const gw = findRow(s, 'gateway')!;
  assert.equal(gw.measurement!.requestsPerSec, 20_000);
  assert.equal(gw.measurement!.cpuMicrosPerRequest, 48);
  assert.deepEqual(gw.measurement!.latencyMicros, { p50: 2_500, p99: 20_000, p999: 40_000 });
  assert.equal(gw.rateSpread, 0.1);
  // Ratios between medians: 20,000 / 26,000 and 48 / 38.
  const vsBase = ratiosTo(gw, findRow(s, 'baseline'));
  assert.ok(Math.abs(vsBase.requestsPerSec! - 20_000 / 26_000) < 1e-12);
  assert.ok(Math.abs(vsBase.cpuPerRequest! - 48 / 38) < 1e-12);

  const md = renderMarkdown({ info: info2, scenarios: [s] });
  assert.match(md, /^- repeats: every target measured 2 times per scenario/m);
  assert.match(md, /\| scenario \| ceiling req\/s ± spread \| baseline req\/s ± spread \| nginx req\/s ± spread \| gateway req\/s ± spread \|/);
  assert.match(md, /\| openai-nonstream \| 100,000 ± 0\.0% \| 26,000 ± 7\.7% \| 86,000 ± 4\.7% \| 20,000 ± 10% \| 0\.77×, 1\.26× \| 0\.23×, 4\.36× \|/);
  assert.match(md, /\| target \| req\/s ± spread \| p50 ms \|/);
  assert.match(
    md,
    /\| gateway \| 20,000 ± 10% \| 2\.500 \| 20\.00 \| 40\.00 \| 48\.0 \| 99 \| 64\.0 \| 0 \| 0\.77×, 1\.26× \| 0\.23×, 4\.36× \| c0 99 · c1 100 \|/,
  );
  assert.match(md, /, 5 s measured, each target run 2 times\./);
  // One line per target, then every repeat as it ran.
  const table = md.slice(md.indexOf('| target |'), md.indexOf('<details>'));
  assert.equal(table.match(/^\| gateway \|/gm)?.length, 1);
  assert.match(md, /<details><summary>Every repeat, in run order<\/summary>\n\n\| repeat, in run order \| req\/s \|/);
  const order = [...md.matchAll(/^\| (\w+) #(\d) \| ([\d,]+) \|/gm)].map((m) => `${m[1]}#${m[2]} ${m[3]}`);
  assert.deepEqual(order, [
    'mock#1 100,000',
    'baseline#1 25,000',
    'nginx#1 84,000',
    'gateway#1 19,000',
    'gateway#2 21,000',
    'nginx#2 88,000',
    'baseline#2 27,000',
    'mock#2 100,000',
  ]);
  assert.match(md, /- repeats: each line is the median of its target's repeats/);
});

test('repeats: a single repeat renders as before, without a spread or a list of repeats', () => {
  const md = renderMarkdown(report);
  assert.match(md, /^- repeats: 1 \(--repeats 1\)/m);
  assert.doesNotMatch(md, /±|<details>|#1|each target run/);
  assert.match(md, /\| scenario \| ceiling req\/s \| baseline req\/s \| nginx req\/s \| gateway req\/s \|/);
  // --repeats 2 on scenarios that run once (the soak): the header does not claim repeats.
  assert.match(renderMarkdown({ ...report, info: info2 }), /^- repeats: one row per target: these scenarios run once whatever --repeats \(2\) says$/m);
});

test('repeats: the JSON keeps every repeat as it ran', () => {
  const s = {
    ...report.scenarios[0]!,
    rows: [
      repeatOf('mock', 1, 100_000, 9, 1, 2),
      repeatOf('gateway', 1, 19_000, 50, 1, 2),
      repeatOf('gateway', 2, 21_000, 46, 1, 2),
      repeatOf('mock', 2, 98_000, 9, 1, 2),
    ],
  };
  const r: BenchReport = { info: info2, scenarios: [s] };
  renderMarkdown(r);
  const json = JSON.parse(JSON.stringify(r)) as { info: { repeats: number }; scenarios: { rows: RowResult[] }[] };
  assert.equal(json.info.repeats, 2);
  assert.deepEqual(
    json.scenarios[0]!.rows.map((x) => [x.target, x.repeat, x.measurement!.requestsPerSec]),
    [
      ['mock', 1, 100_000],
      ['gateway', 1, 19_000],
      ['gateway', 2, 21_000],
      ['mock', 2, 98_000],
    ],
  );
});

test('repeats: added latency is the median row minus the median mock row', () => {
  const s = {
    ...report.scenarios[1]!,
    rows: [
      repeatOf('mock', 1, 4_000, 9, 200, 400),
      repeatOf('gateway', 1, 2_000, 50, 480, 900),
      repeatOf('gateway', 2, 2_100, 50, 520, 1_100),
      repeatOf('mock', 2, 4_100, 9, 220, 420),
    ],
  };
  assert.deepEqual(addedLatencyMicros(findRow(s, 'gateway')!, findRow(s, 'mock')), { p50: 290, p99: 590 });
  const md = renderMarkdown({ info: info2, scenarios: [s] });
  assert.match(md, /\| gateway \| 2,050 ± 4\.9% \| 0\.500 \| 1\.000 \| 2\.000 \| \+290 \| \+590 \|/);
  assert.match(md, /\| added-latency \| 4,050 ± 2\.5% \| – \| – \| 2,050 ± 4\.9% \| –, – \| –, – \| \+290 \/ \+590 \|/);
});

test('repeats: a failed repeat is said on its line, the medians come from the others', () => {
  const broken: RowResult = { target: 'gateway', label: 'gateway', outcome: 'failed', reason: 'gateway exited during the run\nlog tail', repeat: 2 };
  const s = {
    ...report.scenarios[0]!,
    rows: [repeatOf('baseline', 1, 26_000, 38, 1, 2), repeatOf('gateway', 1, 20_000, 50, 1, 2), broken, repeatOf('gateway', 3, 22_000, 50, 1, 2)],
  };
  const gw = findRow(s, 'gateway')!;
  assert.equal(gw.outcome, 'ok');
  assert.equal(gw.measurement!.requestsPerSec, 21_000);
  const md = renderMarkdown({ info: { ...report.info, repeats: 3 }, scenarios: [s] });
  assert.match(md, /\| gateway \(1 of 3 repeats failed\) \| 21,000 ± 9\.5% \|/);
  assert.match(md, /\| gateway #2 \| FAILED: gateway exited during the run \|/);
  assert.ok(md.includes('gateway #2 failed:\n\n```\ngateway exited during the run\nlog tail\n```'));
});

test('repeats: the matrix of a group uses medians', () => {
  const md = renderMarkdown({
    info: info2,
    scenarios: [
      cellScenario('a-b', { row: 'a', column: 'b' }, [
        repeatOf('baseline', 1, 900, 10, 1, 2),
        repeatOf('gateway', 1, 500, 20, 1, 2),
        repeatOf('gateway', 2, 700, 20, 1, 2),
        repeatOf('baseline', 2, 1_100, 10, 1, 2),
      ]),
      cellScenario('a-c', { row: 'a', column: 'c' }, [repeatOf('gateway', 1, 380, 20, 1, 2), repeatOf('gateway', 2, 420, 20, 1, 2)], { baselineFrom: 'a-b' }),
    ],
  });
  assert.match(md, /\| a \| 0\.60× \(600 ± 33%\) \| 0\.40× \(400 ± 10%\) \|/);
  assert.match(md, /Lowest cell: 0\.40×; median 0\.50×\./);
});
