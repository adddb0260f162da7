// The bench's command line. Every flag is optional; the defaults are the short suite that
// `make bench` runs (all scenarios, each target twice, about twenty minutes on two cores).
import { parseArgs } from 'node:util';
import { TARGET_KINDS, type TargetKind } from './scenario.js';

export interface BenchOptions {
  /** Scenario names; empty = all. */
  scenarios: string[];
  /** Targets to run (each scenario still runs only the ones it lists). */
  targets: TargetKind[];
  /** Overrides every scenario's measured seconds. */
  durationSecs: number | null;
  /** Unmeasured seconds before each measured run (JIT, pools, caches). */
  warmupSecs: number;
  /** The longest wait at the start for the 1-minute load average to fall under the busy mark. */
  settleSecs: number;
  /** Measured rows per target and scenario, interleaved across targets; the tables give medians and spreads. */
  repeats: number;
  /** Overrides every throughput scenario's connections (added-latency stays at 1). */
  connections: number | null;
  /** Gateway worker threads (also nginx workers and baseline threads). */
  workers: number;
  pin: boolean;
  /** Where the markdown goes; null = do not write a file. */
  outDir: string | null;
  keepTemp: boolean;
  /** A git ref whose build runs beside this one, its gateway rows interleaved with ours; null = none. */
  compare: string | null;
  /** Gateway rows per build with --compare (alternating order), so each side shows its spread;
   * with --compare it stands in for `repeats` on the gateway rows. */
  compareRounds: number;
  /** Run the gateway and baseline with --trace-gc-nvp: heap bytes per request and GC pauses per row. */
  gcTrace: boolean;
  /** Every scenario that does not set up auth itself runs governed (virtual key, group limits, metering). */
  governed: boolean;
  list: boolean;
  help: boolean;
}

export const USAGE = `usage: node dist/bench/run.js [flags]        (make bench BENCH_ARGS="...")
  --scenario NAME[,NAME]   scenarios to run (repeatable; default all; --list shows them)
  --targets LIST           subset of ${TARGET_KINDS.join(',')} (default all)
  --duration SECS          measured seconds per row (default: each scenario's own, 5)
  --warmup SECS            unmeasured warm-up before each row (default 2; 0 = none)
  --settle SECS            at the start, wait up to SECS for the 1-minute load average to fall
                           under 0.5 (the build before it leaves it near 1; default 120; 0 = none)
  --repeats N              rows per target and scenario, interleaved across targets (default 2,
                           1 to 20; 1 = no spread): tables give medians and req/s ± spread
  --connections N          wrk connections for throughput scenarios (default: scenario's, 64)
  --workers N              gateway worker threads, nginx workers, baseline threads (default 1)
  --pin on|off             pin processes to cores with taskset (default on)
  --out DIR                results folder (default var/bench-results, git-ignored); --no-write to skip the file
  --keep-temp              keep the temp dir (generated configs, wrk scripts, logs)
  --compare REF            also build git REF in a temporary worktree and run its gateway in
                           the same run, rows interleaved with this build's (A/B in one command)
  --compare-rounds N       gateway rows per build with --compare (default 2, alternating order);
                           it replaces --repeats for the gateway, the other targets keep --repeats
  --gc-trace               run gateway and baseline with --trace-gc-nvp: heap bytes allocated
                           per request and GC pauses in each of their rows
  --governed               every scenario that does not set up auth itself sends a virtual key
                           to a gateway with group limits and metering on (issue 14's rows)
  --list                   list scenarios and exit
  --help`;

/** Parses argv; throws an Error whose message names the bad flag. */
export function parseBenchOptions(argv: readonly string[], defaultOutDir: string): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      scenario: { type: 'string', multiple: true, default: [] },
      targets: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string', default: '2' },
      settle: { type: 'string', default: '120' },
      repeats: { type: 'string', default: '2' },
      connections: { type: 'string' },
      workers: { type: 'string', default: '1' },
      pin: { type: 'string', default: 'on' },
      out: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      'keep-temp': { type: 'boolean', default: false },
      compare: { type: 'string' },
      'compare-rounds': { type: 'string', default: '2' },
      'gc-trace': { type: 'boolean', default: false },
      governed: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });

  const scenarios = values.scenario
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  let targets = [...TARGET_KINDS];
  if (values.targets !== undefined) {
    targets = values.targets.split(',').map((t) => t.trim()) as TargetKind[];
    for (const t of targets) {
      if (!TARGET_KINDS.includes(t)) throw new Error(`--targets: unknown target "${t}" (known: ${TARGET_KINDS.join(', ')})`);
    }
  }
  if (values.compare !== undefined && !/^[\w./@^~-]+$/.test(values.compare))
    throw new Error(`--compare takes a git ref (commit, branch or tag), not "${values.compare}"`);
  if (values.pin !== 'on' && values.pin !== 'off') throw new Error(`--pin must be "on" or "off", not "${values.pin}"`);
  return {
    scenarios,
    targets,
    durationSecs: values.duration === undefined ? null : parseSeconds('--duration', values.duration, false),
    warmupSecs: parseSeconds('--warmup', values.warmup, true),
    settleSecs: parseSeconds('--settle', values.settle, true),
    repeats: parseCount('--repeats', values.repeats, 20),
    connections: values.connections === undefined ? null : parseCount('--connections', values.connections, 10_000),
    workers: parseCount('--workers', values.workers, 64),
    pin: values.pin === 'on',
    outDir: values['no-write'] ? null : (values.out ?? defaultOutDir),
    keepTemp: values['keep-temp'],
    compare: values.compare ?? null,
    compareRounds: parseCount('--compare-rounds', values['compare-rounds'], 20),
    gcTrace: values['gc-trace'],
    governed: values.governed,
    list: values.list,
    help: values.help,
  };
}

/** Whole seconds, with or without an `s` suffix (wrk takes whole seconds). */
function parseSeconds(flag: string, text: string, zeroAllowed: boolean): number {
  const m = /^(\d+)s?$/.exec(text.trim());
  const n = m === null ? NaN : Number(m[1]);
  if (!Number.isInteger(n) || n < (zeroAllowed ? 0 : 1) || n > 3600) {
    throw new Error(`${flag} must be whole seconds from ${zeroAllowed ? 0 : 1} to 3600, not "${text}"`);
  }
  return n;
}

function parseCount(flag: string, text: string, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${flag} must be an integer from 1 to ${max}, not "${text}"`);
  return n;
}
