// `--repeats N`: every target of a scenario is measured N times, its rows interleaved with the
// other targets' so that the machine's drift falls on all of them, and the report gives one line
// per target with the medians of its repeats and the spread of its req/s. The plan of the rows
// (run side) and their aggregation (report side) live here; both are pure functions.
import type { GcFigures } from './driver/gc-trace.js';
import type { RowMeasurement, RowResult } from './report.js';
import type { TargetKind } from './scenario.js';

export interface PlannedRow {
  kind: TargetKind;
  /** A row of the `--compare` build's gateway. */
  compare: boolean;
  /** 1-based: which of its target's (and build's) rows this is. */
  repeat: number;
}

/**
 * The rows of one scenario, in run order. Each target gets `repeats` rows; with --compare
 * (`compareRounds` not null) the gateway gets `compareRounds` pairs instead, one row per build,
 * alternating which build goes first (this, other, other, this, ...). The rows run in passes over
 * the targets, forward then backward (mock, baseline, nginx, gateway, gateway, nginx, baseline,
 * mock), as many passes as the most rows any target gets, each target's rows spread evenly over
 * them, so a slow drift of the machine falls on every target alike.
 */
export function planRows(targets: readonly TargetKind[], repeats: number, compareRounds: number | null): PlannedRow[] {
  const rowsOf = (kind: TargetKind): number => (kind === 'gateway' && compareRounds !== null ? compareRounds : repeats);
  const passes = Math.max(0, ...targets.map(rowsOf));
  const plan: PlannedRow[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const kind of pass % 2 === 0 ? targets : [...targets].reverse()) {
      const n = rowsOf(kind);
      for (let k = 0; k < n; k++) {
        if (passOf(k, n, passes) !== pass) continue;
        if (kind === 'gateway' && compareRounds !== null) {
          const refFirst = k % 2 === 1;
          plan.push({ kind, compare: refFirst, repeat: k + 1 }, { kind, compare: !refFirst, repeat: k + 1 });
        } else {
          plan.push({ kind, compare: false, repeat: k + 1 });
        }
      }
    }
  }
  return plan;
}

/**
 * The pass of a target's k-th of n rows: the middle of its share of the passes (1 of 3 in the
 * middle one), the earlier on a tie (1 of 2 in the first, as before --repeats).
 */
function passOf(k: number, n: number, passes: number): number {
  return Math.ceil(((2 * k + 1) * passes) / (2 * n)) - 1;
}

/** The median of the finite values; NaN when there is none (a row that served no request). */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** (max − min) / median: the whole range as a share of the median, as the --compare table shows it. */
export function spread(values: readonly number[]): number {
  const m = median(values);
  return m > 0 ? (Math.max(...values) - Math.min(...values)) / m : 0;
}

/**
 * One line of a scenario's tables: one target's repeats (or the --compare build's gateway's).
 * Its `measurement` holds the medians of the measured repeats, so ratios and added latency
 * computed from lines are computed from medians.
 */
export interface TargetLine extends RowResult {
  /** The rows this line stands for, in run order. */
  repeats: RowResult[];
  /** Repeats that failed or were skipped while others measured (their rows say why). */
  unmeasuredRepeats: number;
  /** Spread of the measured repeats' req/s; null with fewer than two. */
  rateSpread: number | null;
}

/** The lines of a scenario's rows: one per target and build, in the order they first ran. */
export function targetLines(rows: readonly RowResult[]): TargetLine[] {
  const byTarget = new Map<string, RowResult[]>();
  for (const row of rows) {
    const key = `${row.target}${row.compare === true ? ' compare' : ''}`;
    const list = byTarget.get(key);
    if (list === undefined) byTarget.set(key, [row]);
    else list.push(row);
  }
  return [...byTarget.values()].map(summarizeRepeats);
}

/** One target's repeats as a line: the medians of the measured ones, or the first's failure. */
export function summarizeRepeats(repeats: readonly RowResult[]): TargetLine {
  const measured = repeats.filter((r) => r.outcome === 'ok' && r.measurement !== undefined);
  const first = measured[0] ?? repeats[0]!;
  const line: TargetLine = {
    target: first.target,
    label: first.label,
    outcome: first.outcome,
    ...(first.reason === undefined ? {} : { reason: first.reason }),
    ...(first.compare === true ? { compare: true } : {}),
    repeats: [...repeats],
    unmeasuredRepeats: repeats.length - measured.length,
    rateSpread: null,
  };
  if (measured.length === 0) return line;
  const ms = measured.map((r) => r.measurement!);
  line.measurement = medianMeasurement(ms);
  if (ms.length >= 2) line.rateSpread = spread(ms.map((m) => m.requestsPerSec));
  return line;
}

/**
 * Each figure's median over the repeats. Errors are summed instead: one repeat with errors
 * makes the line invalid, and a median would hide it. RSS counts as lifetime if any repeat's was.
 */
export function medianMeasurement(ms: readonly RowMeasurement[]): RowMeasurement {
  const of = (f: (m: RowMeasurement) => number): number => median(ms.map(f));
  const cores = [...new Set(ms.flatMap((m) => Object.keys(m.coreBusyPercent)))];
  const coreBusyPercent: Record<string, number> = {};
  for (const core of cores) coreBusyPercent[core] = median(ms.map((m) => m.coreBusyPercent[core] ?? NaN));
  const gcs = ms.map((m) => m.gc).filter((g): g is GcFigures => g !== undefined);
  const gc: GcFigures | null =
    gcs.length === ms.length
      ? {
          allocatedBytesPerRequest: median(gcs.map((g) => g.allocatedBytesPerRequest)),
          scavenges: median(gcs.map((g) => g.scavenges)),
          markCompacts: median(gcs.map((g) => g.markCompacts)),
          pauseMsTotal: median(gcs.map((g) => g.pauseMsTotal)),
          pauseMsMax: median(gcs.map((g) => g.pauseMsMax)),
        }
      : null;
  return {
    requests: of((m) => m.requests),
    requestsPerSec: of((m) => m.requestsPerSec),
    latencyMicros: { p50: of((m) => m.latencyMicros.p50), p99: of((m) => m.latencyMicros.p99), p999: of((m) => m.latencyMicros.p999) },
    errors: ms.reduce((n, m) => n + m.errors, 0),
    cpuMicrosPerRequest: of((m) => m.cpuMicrosPerRequest),
    cpuPercent: of((m) => m.cpuPercent),
    peakRssBytes: of((m) => m.peakRssBytes),
    peakRssLifetime: ms.some((m) => m.peakRssLifetime),
    coreBusyPercent,
    ...(gc === null ? {} : { gc }),
  };
}
