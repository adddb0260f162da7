import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, medianMeasurement, planRows, spread, summarizeRepeats, targetLines, type PlannedRow } from '../../bench/repeats.js';
import type { RowMeasurement, RowResult } from '../../bench/report.js';

/** The plan as `gateway`, `gateway@ref` and `#repeat`, to read at a glance. */
function names(plan: PlannedRow[]): string[] {
  return plan.map((r) => `${r.kind}${r.compare ? '@ref' : ''}#${r.repeat}`);
}

test('planRows: each repeat is a pass over the targets, forward then backward', () => {
  assert.deepEqual(names(planRows(['mock', 'baseline', 'nginx', 'gateway'], 2, null)), [
    'mock#1',
    'baseline#1',
    'nginx#1',
    'gateway#1',
    'gateway#2',
    'nginx#2',
    'baseline#2',
    'mock#2',
  ]);
  assert.deepEqual(names(planRows(['mock', 'gateway'], 3, null)), ['mock#1', 'gateway#1', 'gateway#2', 'mock#2', 'mock#3', 'gateway#3']);
  // --repeats 1 is the plan from before repeats: each target once, in the scenario's order.
  assert.deepEqual(names(planRows(['mock', 'baseline', 'nginx', 'gateway'], 1, null)), ['mock#1', 'baseline#1', 'nginx#1', 'gateway#1']);
  assert.deepEqual(names(planRows(['gateway'], 2, null)), ['gateway#1', 'gateway#2']);
  assert.deepEqual(planRows([], 2, null), []);
});

test('planRows with --compare: the gateway gets --compare-rounds pairs (this, ref, ref, this), the others --repeats', () => {
  assert.deepEqual(names(planRows(['mock', 'gateway'], 2, 2)), ['mock#1', 'gateway#1', 'gateway@ref#1', 'gateway@ref#2', 'gateway#2', 'mock#2']);
  // As before --repeats: one mock row, then the gateway pairs.
  assert.deepEqual(names(planRows(['mock', 'gateway'], 1, 2)), ['mock#1', 'gateway#1', 'gateway@ref#1', 'gateway@ref#2', 'gateway#2']);
  // More rounds than repeats: the mock's one row lands in the middle pass, between the pairs.
  assert.deepEqual(names(planRows(['mock', 'gateway'], 1, 3)), [
    'gateway#1',
    'gateway@ref#1',
    'gateway@ref#2',
    'gateway#2',
    'mock#1',
    'gateway#3',
    'gateway@ref#3',
  ]);
  // More repeats than rounds: the gateway's pairs take the first and the last pass.
  assert.deepEqual(names(planRows(['mock', 'gateway'], 3, 2)), ['mock#1', 'gateway#1', 'gateway@ref#1', 'mock#2', 'mock#3', 'gateway@ref#2', 'gateway#2']);
});

test('planRows: every target gets its count, whatever the mix', () => {
  for (const repeats of [1, 2, 3, 5]) {
    for (const rounds of [null, 1, 2, 4]) {
      const plan = planRows(['mock', 'baseline', 'nginx', 'gateway'], repeats, rounds);
      for (const kind of ['mock', 'baseline', 'nginx'] as const) assert.equal(plan.filter((r) => r.kind === kind).length, repeats);
      const gateway = plan.filter((r) => r.kind === 'gateway');
      assert.equal(gateway.filter((r) => !r.compare).length, rounds ?? repeats);
      assert.equal(gateway.filter((r) => r.compare).length, rounds ?? 0);
    }
  }
});

test('median and spread', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
  assert.equal(median([NaN, 5]), 5, 'a row that served nothing (NaN CPU/req) does not poison the median');
  assert.equal(spread([19_000, 21_000]), 0.1);
  assert.equal(spread([7]), 0);
});

function measurement(rps: number, over: Partial<RowMeasurement> = {}): RowMeasurement {
  return {
    requests: rps * 5,
    requestsPerSec: rps,
    latencyMicros: { p50: 1_000, p99: 2_000, p999: 4_000 },
    errors: 0,
    cpuMicrosPerRequest: 40,
    cpuPercent: 90,
    peakRssBytes: 60 * 1024 * 1024,
    peakRssLifetime: false,
    coreBusyPercent: { '0': 90, '1': 100 },
    ...over,
  };
}

test('medianMeasurement: every figure its median, errors summed, the lifetime-RSS mark kept', () => {
  const gc = (bytes: number) => ({ allocatedBytesPerRequest: bytes, scavenges: 10, markCompacts: 0, pauseMsTotal: 5, pauseMsMax: 1 });
  const m = medianMeasurement([
    measurement(10_000, { errors: 3, cpuMicrosPerRequest: 50, coreBusyPercent: { '0': 80, '1': 100 }, gc: gc(9_000) }),
    measurement(12_000, { latencyMicros: { p50: 1_200, p99: 2_400, p999: 5_000 }, peakRssLifetime: true, gc: gc(11_000) }),
    measurement(11_000, { cpuMicrosPerRequest: 44, peakRssBytes: 70 * 1024 * 1024, coreBusyPercent: { '0': 95, '1': 100 }, gc: gc(10_000) }),
  ]);
  assert.equal(m.requestsPerSec, 11_000);
  assert.deepEqual(m.latencyMicros, { p50: 1_000, p99: 2_000, p999: 4_000 });
  assert.equal(m.cpuMicrosPerRequest, 44);
  assert.equal(m.errors, 3);
  assert.equal(m.peakRssBytes, 60 * 1024 * 1024);
  assert.equal(m.peakRssLifetime, true);
  assert.deepEqual(m.coreBusyPercent, { '0': 90, '1': 100 });
  assert.equal(m.gc?.allocatedBytesPerRequest, 10_000);
  assert.equal(medianMeasurement([measurement(1, { gc: gc(1) }), measurement(2)]).gc, undefined, 'no GC figure unless every repeat traced');
});

test('targetLines: one line per target and build, in the order they first ran', () => {
  const ok = (target: RowResult['target'], repeat: number, rps: number, compare = false): RowResult => ({
    target,
    label: compare ? `${target} @ abc` : target,
    outcome: 'ok',
    measurement: measurement(rps),
    repeat,
    ...(compare ? { compare: true } : {}),
  });
  const lines = targetLines([
    ok('mock', 1, 50_000),
    ok('gateway', 1, 20_000),
    ok('gateway', 1, 18_000, true),
    ok('gateway', 2, 17_000, true),
    ok('gateway', 2, 22_000),
    ok('mock', 2, 50_000),
  ]);
  assert.deepEqual(
    lines.map((l) => [l.label, l.repeats.length, l.measurement!.requestsPerSec]),
    [
      ['mock', 2, 50_000],
      ['gateway', 2, 21_000],
      ['gateway @ abc', 2, 17_500],
    ],
  );
  assert.equal(lines[2]!.compare, true);
  assert.equal(lines[0]!.rateSpread, 0);
  // One repeat: no spread; no measured repeat: the first failure stands for the line.
  assert.equal(summarizeRepeats([ok('mock', 1, 1)]).rateSpread, null);
  const skipped = summarizeRepeats([
    { target: 'nginx', label: 'nginx', outcome: 'skipped', reason: 'not installed', repeat: 1 },
    { target: 'nginx', label: 'nginx', outcome: 'skipped', reason: 'not installed', repeat: 2 },
  ]);
  assert.deepEqual([skipped.outcome, skipped.reason, skipped.measurement, skipped.unmeasuredRepeats], ['skipped', 'not installed', undefined, 2]);
});
