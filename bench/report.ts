// Results and their markdown. Pure functions over plain data, so the arithmetic (ratios, added
// latency, the ceiling mark) is tested without running any load. A scenario's rows are every
// repeat as it ran; the tables read them as one line per target (bench/repeats.ts): medians.
import type { GcFigures } from './driver/gc-trace.js';
import { median, summarizeRepeats, targetLines, type TargetLine } from './repeats.js';
import type { ScenarioKind, TargetKind } from './scenario.js';

export interface RowMeasurement {
  requests: number;
  requestsPerSec: number;
  latencyMicros: { p50: number; p99: number; p999: number };
  /** Socket errors, timeouts and responses above 399, as wrk counts them. */
  errors: number;
  /** Proxy CPU (utime + stime over the run) divided by requests served. */
  cpuMicrosPerRequest: number;
  /** Proxy CPU time over wall time, in percent of one core. */
  cpuPercent: number;
  /** Peak RSS during the run (VmHWM after a reset); the lifetime peak if the reset failed. */
  peakRssBytes: number;
  peakRssLifetime: boolean;
  /** Busy percent of each core in the layout over the run, keyed by core number. */
  coreBusyPercent: Record<string, number>;
  /** `--gc-trace`: heap bytes per request and GC pauses over the measured run. */
  gc?: GcFigures;
}

export interface RowResult {
  target: TargetKind;
  label: string;
  outcome: 'ok' | 'failed' | 'skipped';
  /** Why it failed or was skipped (may span lines). */
  reason?: string;
  measurement?: RowMeasurement;
  /** The scenario's own note on this row (Scenario.gatewayNote). */
  note?: string;
  /** A row of the `--compare` build's gateway (not this checkout's). */
  compare?: boolean;
  /** 1-based: which of its target's (and build's) rows in the scenario this is (`--repeats`). */
  repeat?: number;
}

export interface ScenarioResult {
  name: string;
  title: string;
  kind: ScenarioKind;
  method: string;
  path: string;
  bodyBytes: number;
  connections: number;
  durationSecs: number;
  /** Every row as it ran, repeats included, in run order. */
  rows: RowResult[];
  /** The scenario whose baseline row is this one's reference (Scenario.baselineFrom). */
  baselineFrom?: string;
  /** Scenario.baselineGroup: compared with every baseline row of the scenarios with this key. */
  baselineGroup?: string;
  group?: string;
  cell?: { row: string; column: string };
  /** Scenario.reference: the scenario whose gateway row this one's is compared with. */
  reference?: string;
}

export interface RunInfo {
  startedAt: Date;
  commit: string;
  machine: string;
  versions: string;
  pinning: string;
  workers: number;
  warmupSecs: number;
  /** `--repeats`: rows per target and scenario (a scenario that runs once says so in its rows). */
  repeats: number;
  loadAverage: string;
  /** Set when the machine was busy before the bench started: the numbers are noisy. */
  noiseWarning: string | null;
  /** `--compare REF`: the other build, and how many gateway rows each build got. */
  compare?: { ref: string; commit: string; rounds: number };
}

export interface BenchReport {
  info: RunInfo;
  scenarios: ScenarioResult[];
}

/** A proxy row at or above this share of the mock's req/s is bound by the load side. */
const CEILING_SHARE = 0.9;

export interface Ratios {
  /** row req/s over the reference's; above 1 is faster. */
  requestsPerSec: number | null;
  /** row CPU per request over the reference's; above 1 costs more. */
  cpuPerRequest: number | null;
}

/** A row's latency, CPU, memory and error cells, the same in a target's line and in each repeat's. */
function measuredCells(m: RowMeasurement): string[] {
  return [
    formatMs(m.latencyMicros.p50),
    formatMs(m.latencyMicros.p99),
    formatMs(m.latencyMicros.p999),
    formatCpuMicros(m.cpuMicrosPerRequest),
    Math.round(m.cpuPercent).toString(),
    `${formatMiB(m.peakRssBytes)}${m.peakRssLifetime ? ' ‡' : ''}`,
    m.errors === 0 ? '0' : `⚠ ${int.format(m.errors)}`,
  ];
}

function okMeasurement(row: RowResult | undefined): RowMeasurement | null {
  return row?.outcome === 'ok' && row.measurement !== undefined ? row.measurement : null;
}

function quotient(a: number, b: number): number | null {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : null;
}

/** The row against a reference row of the same scenario; nulls where either side is missing. */
export function ratiosTo(row: RowResult, reference: RowResult | undefined): Ratios {
  const a = okMeasurement(row);
  const b = okMeasurement(reference);
  if (a === null || b === null) return { requestsPerSec: null, cpuPerRequest: null };
  return {
    requestsPerSec: quotient(a.requestsPerSec, b.requestsPerSec),
    cpuPerRequest: quotient(a.cpuMicrosPerRequest, b.cpuMicrosPerRequest),
  };
}

/** What the hop adds over going to the mock directly: row percentile minus the mock's, in µs. */
export function addedLatencyMicros(row: RowResult, mock: RowResult | undefined): { p50: number; p99: number } | null {
  const a = okMeasurement(row);
  const m = okMeasurement(mock);
  if (a === null || m === null) return null;
  return { p50: a.latencyMicros.p50 - m.latencyMicros.p50, p99: a.latencyMicros.p99 - m.latencyMicros.p99 };
}

/** The gateway row of a scenario against the gateway row of its reference, run in the same
 * invocation: the req/s ratio and what the scenario adds to p50 and p99 (µs; p99 also as a ratio). */
export interface VersusReference {
  reference: string;
  requestsPerSec: number | null;
  addedP50Micros: number;
  addedP99Micros: number;
  p99Ratio: number | null;
}

export function versusReference(s: ScenarioResult, all: readonly ScenarioResult[]): VersusReference | null {
  if (s.reference === undefined) return null;
  const ref = all.find((r) => r.name === s.reference);
  const a = okMeasurement(findRow(s, 'gateway'));
  const b = ref === undefined ? null : okMeasurement(findRow(ref, 'gateway'));
  if (a === null || b === null) return null;
  return {
    reference: s.reference,
    requestsPerSec: quotient(a.requestsPerSec, b.requestsPerSec),
    addedP50Micros: a.latencyMicros.p50 - b.latencyMicros.p50,
    addedP99Micros: a.latencyMicros.p99 - b.latencyMicros.p99,
    p99Ratio: quotient(a.latencyMicros.p99, b.latencyMicros.p99),
  };
}

function formatVersus(v: VersusReference): string {
  return `${formatRatio(v.requestsPerSec)}, ${formatSigned(v.addedP50Micros)} / ${formatSigned(v.addedP99Micros)}`;
}

/** True when a proxy row reached CEILING_SHARE of the direct-to-mock rate. */
export function atCeiling(row: RowResult, mock: RowResult | undefined): boolean {
  if (row.target === 'mock') return false;
  const r = ratiosTo(row, mock).requestsPerSec;
  return r !== null && r >= CEILING_SHARE;
}

/** This checkout's line of a target: the medians of its repeats (a --compare build's rows are
 * never the reference). */
export function findRow(s: ScenarioResult, target: TargetKind): TargetLine | undefined {
  return targetLines(s.rows).find((r) => r.target === target && r.compare !== true);
}

/** Median and spread ((max - min) / median) of one build's gateway rows in a scenario. */
export interface BuildFigures {
  rows: number;
  requestsPerSec: number;
  rateSpread: number;
  cpuMicrosPerRequest: number;
  p99Micros: number;
}

export function buildFigures(s: ScenarioResult, compare: boolean): BuildFigures | null {
  const line = targetLines(s.rows).find((r) => r.target === 'gateway' && (r.compare === true) === compare);
  const m = line === undefined ? null : okMeasurement(line);
  if (line === undefined || m === null) return null;
  return {
    rows: line.repeats.length - line.unmeasuredRepeats,
    requestsPerSec: m.requestsPerSec,
    rateSpread: line.rateSpread ?? 0,
    cpuMicrosPerRequest: m.cpuMicrosPerRequest,
    p99Micros: m.latencyMicros.p99,
  };
}

// ---- formatting ----

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatRate(n: number): string {
  return int.format(n);
}

/** Milliseconds from microseconds: three decimals under 10 ms, two above. */
export function formatMs(micros: number): string {
  const ms = micros / 1000;
  return ms < 10 ? ms.toFixed(3) : ms.toFixed(2);
}

/** A spread as a percentage: one decimal under 10%, where a point or two matters. */
function formatSpread(spread: number): string {
  const pct = spread * 100;
  return `${pct < 10 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** A line's median req/s, with `± spread` when it has two measured repeats or more. */
function formatLineRate(line: TargetLine): string {
  const m = okMeasurement(line);
  if (m === null) return '–';
  return line.rateSpread === null ? formatRate(m.requestsPerSec) : `${formatRate(m.requestsPerSec)} ± ${formatSpread(line.rateSpread)}`;
}

/** The target's label, saying how many of its repeats did not measure when some did. */
function lineLabel(line: TargetLine): string {
  return line.unmeasuredRepeats > 0 && line.outcome === 'ok'
    ? `${line.label} (${line.unmeasuredRepeats} of ${line.repeats.length} repeats ${line.repeats.some((r) => r.outcome === 'failed') ? 'failed' : 'skipped'})`
    : line.label;
}

/** A raw row's label in the repeats table and its notes: `gateway #2` when its target repeated. */
function repeatLabel(row: RowResult, repeated: boolean): string {
  return repeated && row.repeat !== undefined ? `${row.label} #${row.repeat}` : row.label;
}

/** True when some target of the scenario ran more than once (the tables then show spreads). */
function repeatedIn(s: ScenarioResult): boolean {
  return targetLines(s.rows).some((l) => l.repeats.length > 1);
}

/** `, each target run 2 times` (or `2–3 times` with --compare-rounds apart from --repeats); empty for one. */
function runsPerTarget(s: ScenarioResult): string {
  const counts = targetLines(s.rows).map((l) => l.repeats.length);
  if (counts.length === 0) return '';
  const least = Math.min(...counts);
  const most = Math.max(...counts);
  if (most <= 1) return '';
  return `, each target run ${least === most ? most : `${least}–${most}`} times`;
}

/** `req/s`, or `req/s ± spread` when the figures below it carry a spread. */
function rateHeader(name: string, repeated: boolean): string {
  return repeated ? `${name} ± spread` : name;
}

function formatRatio(r: number | null): string {
  return r === null ? '–' : `${r.toFixed(2)}×`;
}

/** CPU µs per request; a dash when no request completed. */
export function formatCpuMicros(n: number): string {
  return Number.isFinite(n) ? n.toFixed(1) : '–';
}

function formatMiB(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

function formatSigned(micros: number): string {
  const n = Math.round(micros);
  return n > 0 ? `+${n}` : String(n);
}

function formatCores(busy: Record<string, number>): string {
  return Object.entries(busy)
    .map(([core, pct]) => `c${core} ${Math.round(pct)}`)
    .join(' · ');
}

/** Table cells may not hold pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function table(header: string[], rows: string[][]): string {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_h, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const r of rows) lines.push(`| ${r.map(cell).join(' | ')} |`);
  return lines.join('\n');
}

function unmeasured(row: RowResult, width: number): string[] {
  const why = row.outcome === 'skipped' ? 'skipped' : 'FAILED';
  const first = (row.reason ?? '').split('\n')[0];
  return [row.label, `${why}: ${first}`, ...Array<string>(width - 2).fill('')];
}

/**
 * The scenario's baseline line: its group's (every baseline row of the scenarios in its
 * baseline group, as one line), else its own row, else the one of the scenario it borrows from.
 */
export function baselineRow(report: BenchReport, s: ScenarioResult): TargetLine | undefined {
  const group = groupBaselineRows(report, s);
  if (group.length > 0) return summarizeRepeats(group);
  const own = findRow(s, 'baseline');
  if (own !== undefined || s.baselineFrom === undefined) return own;
  const from = report.scenarios.find((x) => x.name === s.baselineFrom);
  return from === undefined ? undefined : findRow(from, 'baseline');
}

const isBaselineRow = (r: RowResult): boolean => r.target === 'baseline' && r.compare !== true;

/** The baseline rows of every scenario in `s`'s baseline group, in run order (none without a group). */
function groupBaselineRows(report: BenchReport, s: ScenarioResult): RowResult[] {
  if (s.baselineGroup === undefined) return [];
  return report.scenarios.filter((x) => x.baselineGroup === s.baselineGroup).flatMap((x) => x.rows.filter(isBaselineRow));
}

/** Where a grouped scenario's baseline comes from, under its table (null without a group). */
function groupBaselineNote(report: BenchReport, s: ScenarioResult): string | null {
  const rows = groupBaselineRows(report, s);
  if (rows.length === 0) return null;
  const from = report.scenarios.filter((x) => x.baselineGroup === s.baselineGroup && x.rows.some(isBaselineRow)).map((x) => x.name);
  const line = summarizeRepeats(rows);
  return `"vs baseline" divides by the baseline's median over the ${rows.length} baseline rows of ${from.join(' and ')} (${formatLineRate(line)} req/s), not by a row of this table alone.`;
}

function throughputTable(report: BenchReport, s: ScenarioResult): string {
  const mock = findRow(s, 'mock');
  const baseline = baselineRow(report, s);
  const nginx = findRow(s, 'nginx');
  const header = [
    'target',
    rateHeader('req/s', repeatedIn(s)),
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'CPU µs/req',
    'CPU %',
    'peak RSS MiB',
    'errors',
    'vs baseline: req/s, CPU/req',
    'vs nginx: req/s, CPU/req',
    'cores busy %',
  ];
  const rows = targetLines(s.rows).map((row) => {
    const m = okMeasurement(row);
    if (m === null) return unmeasured(row, header.length);
    const vsBase = row.target === 'mock' || row.target === 'baseline' ? null : ratiosTo(row, baseline);
    const vsNginx = row.target === 'mock' || row.target === 'nginx' ? null : ratiosTo(row, nginx);
    return [
      lineLabel(row),
      `${formatLineRate(row)}${atCeiling(row, mock) ? ' †' : ''}`,
      ...measuredCells(m),
      vsBase === null ? '–' : `${formatRatio(vsBase.requestsPerSec)}, ${formatRatio(vsBase.cpuPerRequest)}`,
      vsNginx === null ? '–' : `${formatRatio(vsNginx.requestsPerSec)}, ${formatRatio(vsNginx.cpuPerRequest)}`,
      formatCores(m.coreBusyPercent),
    ];
  });
  return table(header, rows);
}

function addedLatencyTable(s: ScenarioResult): string {
  const mock = findRow(s, 'mock');
  const header = [
    'target',
    rateHeader('req/s', repeatedIn(s)),
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'added p50 µs',
    'added p99 µs',
    'CPU µs/req',
    'peak RSS MiB',
    'errors',
    'cores busy %',
  ];
  const rows = targetLines(s.rows).map((row) => {
    const m = okMeasurement(row);
    if (m === null) return unmeasured(row, header.length);
    const added = row.target === 'mock' ? null : addedLatencyMicros(row, mock);
    return [
      lineLabel(row),
      formatLineRate(row),
      formatMs(m.latencyMicros.p50),
      formatMs(m.latencyMicros.p99),
      formatMs(m.latencyMicros.p999),
      row.target === 'mock' ? '(reference)' : added === null ? '–' : formatSigned(added.p50),
      row.target === 'mock' ? '(reference)' : added === null ? '–' : formatSigned(added.p99),
      formatCpuMicros(m.cpuMicrosPerRequest),
      `${formatMiB(m.peakRssBytes)}${m.peakRssLifetime ? ' ‡' : ''}`,
      m.errors === 0 ? '0' : `⚠ ${int.format(m.errors)}`,
      formatCores(m.coreBusyPercent),
    ];
  });
  return table(header, rows);
}

/** Every repeat of a scenario's targets as it ran, so the spread behind each median shows. */
function repeatsTable(s: ScenarioResult): string {
  const header = ['repeat, in run order', 'req/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'CPU µs/req', 'CPU %', 'peak RSS MiB', 'errors', 'cores busy %'];
  const rows = s.rows.map((row) => {
    const m = okMeasurement(row);
    if (m === null) return unmeasured({ ...row, label: repeatLabel(row, true) }, header.length);
    return [repeatLabel(row, true), formatRate(m.requestsPerSec), ...measuredCells(m), formatCores(m.coreBusyPercent)];
  });
  return table(header, rows);
}

/** One line per scenario: the gateway against the ceiling, the baseline and nginx. */
function summaryTable(report: BenchReport): string {
  const repeated = report.scenarios.some(repeatedIn);
  const header = [
    'scenario',
    ...['ceiling req/s', 'baseline req/s', 'nginx req/s', 'gateway req/s'].map((h) => rateHeader(h, repeated)),
    'gateway vs baseline: req/s, CPU/req',
    'gateway vs nginx: req/s, CPU/req',
    'gateway added p50 / p99 µs',
    'gateway vs reference: req/s, added p50 / p99 µs',
  ];
  const rows = report.scenarios.map((s) => {
    const rate = (t: TargetKind): string => {
      const line = t === 'baseline' ? baselineRow(report, s) : findRow(s, t);
      return line === undefined ? '–' : formatLineRate(line);
    };
    const gw = findRow(s, 'gateway');
    const vsBase = gw === undefined ? null : ratiosTo(gw, baselineRow(report, s));
    const vsNginx = gw === undefined ? null : ratiosTo(gw, findRow(s, 'nginx'));
    const added = gw === undefined ? null : addedLatencyMicros(gw, findRow(s, 'mock'));
    const versus = versusReference(s, report.scenarios);
    return [
      s.name,
      rate('mock'),
      rate('baseline'),
      rate('nginx'),
      rate('gateway'),
      vsBase === null ? '–' : `${formatRatio(vsBase.requestsPerSec)}, ${formatRatio(vsBase.cpuPerRequest)}`,
      vsNginx === null ? '–' : `${formatRatio(vsNginx.requestsPerSec)}, ${formatRatio(vsNginx.cpuPerRequest)}`,
      s.kind === 'added-latency' && added !== null ? `${formatSigned(added.p50)} / ${formatSigned(added.p99)}` : '–',
      versus === null ? '–' : `${formatVersus(versus)} (vs ${versus.reference})`,
    ];
  });
  return table(header, rows);
}

/** `--gc-trace`: heap allocation per request and collections of the traced lines (medians of their repeats). */
function gcTable(rows: RowResult[]): string {
  const header = ['target (--trace-gc-nvp)', 'heap bytes allocated/req', 'scavenges', 'mark-compacts', 'GC pause total ms', 'GC pause max ms'];
  return table(
    header,
    rows.map((r) => {
      const g = r.measurement!.gc!;
      return [
        r.label,
        int.format(g.allocatedBytesPerRequest),
        int.format(g.scavenges),
        int.format(g.markCompacts),
        g.pauseMsTotal.toFixed(1),
        g.pauseMsMax.toFixed(2),
      ];
    }),
  );
}

/** --compare: this build's gateway against the other build's, medians over their rows. */
function compareTable(report: BenchReport): string {
  const c = report.info.compare!;
  const header = [
    'scenario',
    `this (${report.info.commit}) req/s ± spread`,
    `${c.commit} req/s ± spread`,
    'this / other req/s',
    'CPU µs/req this vs other',
    'this / other CPU',
    'p99 ms this vs other',
  ];
  const rows = report.scenarios.map((s) => {
    const a = buildFigures(s, false);
    const b = buildFigures(s, true);
    if (a === null || b === null)
      return [s.name, a === null ? '–' : formatRate(a.requestsPerSec), b === null ? '–' : formatRate(b.requestsPerSec), '–', '–', '–', '–'];
    return [
      s.name,
      `${formatRate(a.requestsPerSec)} ± ${formatSpread(a.rateSpread)}`,
      `${formatRate(b.requestsPerSec)} ± ${formatSpread(b.rateSpread)}`,
      formatRatio(quotient(a.requestsPerSec, b.requestsPerSec)),
      `${formatCpuMicros(a.cpuMicrosPerRequest)} vs ${formatCpuMicros(b.cpuMicrosPerRequest)}`,
      formatRatio(quotient(a.cpuMicrosPerRequest, b.cpuMicrosPerRequest)),
      `${formatMs(a.p99Micros)} vs ${formatMs(b.p99Micros)}`,
    ];
  });
  return table(header, rows);
}

/**
 * A group whose scenarios are cells (row x column, e.g. ingress x lane): the gateway's req/s
 * over its baseline's in each cell, and the gateway's req/s, so the whole family reads at once.
 */
function matrixTable(report: BenchReport, group: string): string {
  const cells = report.scenarios.filter((s) => s.group === group && s.cell !== undefined);
  const rowsOf = [...new Set(cells.map((s) => s.cell!.row))];
  // Columns in the rows' order where they are also rows (a square matrix reads diagonally).
  const rank = (c: string): number => (rowsOf.includes(c) ? rowsOf.indexOf(c) : rowsOf.length);
  const columns = [...new Set(cells.map((s) => s.cell!.column))].sort((a, b) => rank(a) - rank(b));
  const header = [`${group}: gateway/baseline req/s (gateway req/s)`, ...columns];
  const rows = rowsOf.map((r) => [
    r,
    ...columns.map((c) => {
      const s = cells.find((x) => x.cell!.row === r && x.cell!.column === c);
      if (s === undefined) return '·';
      const gw = findRow(s, 'gateway');
      const m = gw === undefined ? null : okMeasurement(gw);
      if (m === null) return gw === undefined ? '–' : 'FAILED';
      return `${formatRatio(ratiosTo(gw!, baselineRow(report, s)).requestsPerSec)} (${formatLineRate(gw!)})`;
    }),
  ]);
  const ratios = cells
    .map((s) => {
      const gw = findRow(s, 'gateway');
      return gw === undefined ? null : ratiosTo(gw, baselineRow(report, s)).requestsPerSec;
    })
    .filter((x): x is number => x !== null);
  const worst = ratios.length === 0 ? '' : `\n\nLowest cell: ${formatRatio(Math.min(...ratios))}; median ${formatRatio(median(ratios))}.`;
  return table(header, rows) + worst;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `2025-11-22 14:05 UTC` */
function formatStamp(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
}

/** The header's line on repeats. */
function describeRepeats(report: BenchReport): string {
  const { repeats, compare } = report.info;
  const gatewayRounds = compare === undefined ? '' : `, except the gateway's ${compare.rounds} rows per build (--compare-rounds)`;
  if (repeats <= 1) return `repeats: 1 (--repeats 1): one row per target${gatewayRounds}, so no spread is shown${gatewayRounds === '' ? '' : ' but theirs'}`;
  if (!report.scenarios.some(repeatedIn)) return `repeats: one row per target: these scenarios run once whatever --repeats (${repeats}) says`;
  return (
    `repeats: every target measured ${repeats} times per scenario${gatewayRounds}, its rows interleaved with the other targets' (forward, then backward); ` +
    'the tables give the medians, req/s ± spread ((max − min) / median), and list every repeat under each scenario'
  );
}

export function renderMarkdown(report: BenchReport): string {
  const { info } = report;
  const out: string[] = [
    `# Bench results, ${formatStamp(info.startedAt)}`,
    '',
    `- commit: ${info.commit}`,
    `- machine: ${info.machine}; load average at start: ${info.loadAverage}`,
    `- software: ${info.versions}`,
    `- pinning: ${info.pinning}`,
    `- each row: ${info.warmupSecs} s warm-up (not measured), then the measured run; gateway workers: ${info.workers}`,
    `- ${describeRepeats(report)}`,
    ...(info.noiseWarning === null ? [] : [`- ⚠ ${info.noiseWarning}`]),
    '',
    '## Summary',
    '',
    summaryTable(report),
  ];
  const groups = [...new Set(report.scenarios.filter((s) => s.cell !== undefined && s.group !== undefined).map((s) => s.group!))];
  for (const g of groups) out.push('', `## ${g}`, '', matrixTable(report, g));
  if (info.compare !== undefined) {
    out.push(
      '',
      `## This build against ${info.compare.commit} (--compare ${info.compare.ref})`,
      '',
      `Each build's gateway ran ${info.compare.rounds} row${info.compare.rounds === 1 ? '' : 's'} per scenario, interleaved (this, other, other, this, ...); medians, and the spread of req/s as (max − min) / median. Every row is in its scenario's list of repeats below.`,
      '',
      compareTable(report),
    );
  }
  report.scenarios.forEach((s, i) => {
    out.push(
      '',
      `## ${i + 1}. ${s.name}: ${s.title}`,
      '',
      `${s.method} ${s.path}, ${s.bodyBytes}-byte body, ${s.connections} connection${s.connections === 1 ? '' : 's'}, ${s.durationSecs} s measured${runsPerTarget(s)}.`,
      '',
      s.kind === 'added-latency' ? addedLatencyTable(s) : throughputTable(report, s),
    );
    const groupNote = groupBaselineNote(report, s);
    if (groupNote !== null) out.push('', groupNote);
    const mockLine = findRow(s, 'mock');
    if (s.kind === 'throughput' && mockLine !== undefined && okMeasurement(mockLine) !== null) {
      out.push('', `Ceiling (wrk straight to the mock, same cores): ${formatLineRate(mockLine)} req/s.`);
    }
    const versus = versusReference(s, report.scenarios);
    if (versus !== null) {
      out.push(
        '',
        `Against ${versus.reference} in the same run (gateway rows): req/s ${formatRatio(versus.requestsPerSec)}, added p50 ${formatSigned(versus.addedP50Micros)} µs, added p99 ${formatSigned(versus.addedP99Micros)} µs (p99 ${formatRatio(versus.p99Ratio)}).`,
      );
    } else if (s.reference !== undefined) {
      out.push('', `Run ${s.reference} in the same invocation for the comparison with it (--scenario ${s.reference},${s.name}).`);
    }
    const repeated = repeatedIn(s);
    for (const r of s.rows) if (r.note !== undefined) out.push('', `${repeatLabel(r, repeated)}: ${r.note}`);
    const traced = targetLines(s.rows).filter((r) => r.measurement?.gc !== undefined);
    if (traced.length > 0) out.push('', gcTable(traced));
    if (repeated) out.push('', '<details><summary>Every repeat, in run order</summary>', '', repeatsTable(s), '', '</details>');
    // A reason of several lines in full, once per target however many of its repeats gave it.
    const shown = new Set<string>();
    for (const r of s.rows) {
      if (r.outcome === 'ok' || r.reason === undefined || !r.reason.includes('\n') || shown.has(`${r.label}\n${r.reason}`)) continue;
      shown.add(`${r.label}\n${r.reason}`);
      out.push('', `${repeatLabel(r, repeated)} ${r.outcome}:`, '', '```', r.reason, '```');
    }
  });
  out.push(
    '',
    '## Reading the columns',
    '',
    '- req/s: completed responses per second over the measured run. † = within 10% of the ceiling: the load side (wrk + mock) was the bottleneck, not the proxy.',
    ...(report.scenarios.some(repeatedIn)
      ? [
          '- repeats: each line is the median of its target\'s repeats, figure by figure (errors: their sum), and every ratio and added latency is taken between medians. ± spread: (max − min) / median of the repeats\' req/s, the whole range, not a deviation: a difference between two lines smaller than their spreads is noise. "Every repeat" under each table lists the rows as they ran.',
        ]
      : []),
    "- p50/p99/p99.9: wrk's latency percentiles, request sent to last byte received.",
    '- CPU µs/req: utime + stime of the process under test (all threads, plus child processes such as the nginx worker) over the run, divided by requests. CPU %: the same over wall time (100 = one core).',
    '- peak RSS: VmHWM over the run (reset before it through /proc/<pid>/clear_refs); ‡ = the reset was refused, so this is the lifetime peak.',
    '- errors: socket errors, timeouts and responses above 399. A row with errors is not a valid measurement.',
    '- vs baseline / vs nginx: this row over the reference row of the same scenario in the same run (req/s above 1× is faster; CPU/req above 1× costs more).',
    "- added p50/p99: the row minus the mock-direct row, at one connection. cores busy %: /proc/stat busy share of each core, anyone's work included.",
    "- vs reference: a scenario that varies the gateway around another one (a gate, a slow tap, metrics export) against that scenario's gateway row in the same run: req/s ratio, and this row's p50 / p99 minus the reference's, in µs.",
    '',
    'More in bench/README.md.',
    '',
  );
  return out.join('\n');
}
