// `make bench`: node dist/bench/run.js [flags]. Starts the mock, then each target as its own
// pinned process, runs every selected scenario against its targets with wrk, prints a markdown
// report and writes it to var/bench-results/ (git-ignored). Every process started is stopped at the end, on
// error and on Ctrl-C too.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildProcesses } from './child-processes.js';
import { writeWrkScript } from './driver/wrk.js';
import { measureRow, wrkScriptPath, type MeasureContext } from './measure.js';
import { parseBenchOptions, USAGE, type BenchOptions } from './options.js';
import { REPO_DIR, RESULTS_DIR } from './paths.js';
import { allowedCores, planPinning, type PinningLayout } from './pinning.js';
import { formatCpuMicros, formatMs, formatRate, renderMarkdown, type BenchReport, type RowResult, type RunInfo, type ScenarioResult } from './report.js';
import { planRows, type PlannedRow } from './repeats.js';
import { loadScenarios, selectScenarios } from './scenario-catalog.js';
import type { Scenario, TargetKind } from './scenario.js';
import { startBaseline } from './targets/baseline.js';
import { buildCompare, type CompareBuild } from './compare-build.js';
import { startGateway, type GatewayBuild } from './targets/gateway.js';
import { startMock } from './targets/mock.js';
import { findNginx, startNginx } from './targets/nginx.js';
import { TargetUnavailable, type RunningTarget, type StartTarget, type TargetContext } from './targets/target.js';
import { governedVariant } from './governed-gateway.js';

const STARTERS: Record<TargetKind, StartTarget> = {
  mock: startMock,
  baseline: startBaseline,
  nginx: startNginx,
  gateway: startGateway,
};

const WRK_CANDIDATES = ['/usr/bin/wrk', '/usr/local/bin/wrk'];

/** A 1-minute load average at or above this at the start gets a warning in the report. */
const BUSY_LOAD_AVERAGE = 0.5;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Starts each target the first time a scenario needs it; remembers a failure to start. */
class Targets {
  private readonly started = new Map<TargetKind, Promise<RunningTarget>>();
  private compareGateway: Promise<RunningTarget> | null = null;
  /** Gateways shared by scenarios with the same `sharedGateway` key (and build). */
  private readonly shared = new Map<string, Promise<RunningTarget>>();

  constructor(
    readonly context: TargetContext,
    /** `--compare`: the other build's gateway, started beside ours. */
    readonly compare: GatewayBuild | null = null,
  ) {}

  /** The gateway of a `sharedGateway` key, started on first use with that scenario's config. */
  getShared(scenario: Scenario, build: GatewayBuild | undefined): Promise<RunningTarget> {
    const key = `${scenario.sharedGateway!}|${build?.cli ?? ''}`;
    let t = this.shared.get(key);
    if (t === undefined) {
      log(`starting the gateway ${scenario.sharedGateway!} scenarios share${build === undefined ? '' : ` ${build.label}`}...`);
      t = startGateway(this.context, scenario.gatewayConfig, build, scenario.gatewayReadySecs);
      t.catch(() => undefined);
      this.shared.set(key, t);
    }
    return t;
  }

  /** The shared gateway of the --compare build. */
  getCompare(): Promise<RunningTarget> {
    if (this.compareGateway === null) {
      log(`starting gateway ${this.compare!.label}...`);
      this.compareGateway = startGateway(this.context, undefined, this.compare!);
      this.compareGateway.catch(() => undefined);
    }
    return this.compareGateway;
  }

  /** Registers a target started elsewhere (the mock, started first). */
  provide(target: RunningTarget): void {
    this.started.set(target.kind, Promise.resolve(target));
  }

  get(kind: TargetKind): Promise<RunningTarget> {
    let t = this.started.get(kind);
    if (t === undefined) {
      log(`starting ${kind}...`);
      t = STARTERS[kind](this.context);
      t.catch(() => undefined); // the failure is reported per row
      this.started.set(kind, t);
    }
    return t;
  }
}

async function runScenario(
  scenario: Scenario,
  opts: BenchOptions,
  targets: Targets,
  mctx: MeasureContext,
  progress: () => string,
  interrupted: AbortSignal,
): Promise<ScenarioResult> {
  const connections = scenario.kind === 'throughput' ? (opts.connections ?? scenario.connections) : scenario.connections;
  const durationSecs = opts.durationSecs ?? scenario.durationSecs;
  await writeWrkScript(wrkScriptPath(mctx.tempDir, scenario), scenario.request);
  const rows: RowResult[] = [];
  const plan = rowPlan(scenario, opts, targets.compare !== null);
  const repeated = plan.some((r) => r.repeat > 1);
  for (const { kind, compare, repeat } of plan) {
    if (interrupted.aborted) break;
    let label: string = kind;
    // A scenario with its own gateway config gets its own gateway, stopped after its row
    // (or one its group shares, kept to the end). That is one gateway per repeat, not one kept
    // across them: scenario hooks keep per-process state per row (the metrics scraper starts in
    // gatewayConfig and stops in gatewayNote, /stats counts since the start, the soak applies
    // configs), so a fresh process keeps each repeat the row it was before --repeats.
    const sharedGateway = kind === 'gateway' && scenario.gatewayConfig !== undefined && scenario.sharedGateway !== undefined;
    const ownGateway = kind === 'gateway' && scenario.gatewayConfig !== undefined && !sharedGateway;
    let target: RunningTarget | null = null;
    try {
      if (ownGateway) log(`starting a gateway with ${scenario.name}'s config...`);
      const build = compare ? targets.compare! : undefined;
      target = ownGateway
        ? await startGateway(targets.context, scenario.gatewayConfig, build, scenario.gatewayReadySecs)
        : sharedGateway
          ? await targets.getShared(scenario, build)
          : compare
            ? await targets.getCompare()
            : await targets.get(kind);
      label = target.label;
      const { measurement: m, besideNote } = await measureRow(mctx, target, { scenario, connections, durationSecs, warmupSecs: opts.warmupSecs });
      const gatewayNote =
        kind === 'gateway' && scenario.gatewayNote !== undefined
          ? await scenario.gatewayNote(target.url, { pid: target.pid, durationSecs, workers: opts.workers, loadCores: mctx.layout.load })
          : null;
      const notes = [besideNote, gatewayNote].filter((n): n is string => n !== null);
      const note = notes.length === 0 ? null : notes.join('; ');
      rows.push({ target: kind, label, outcome: 'ok', measurement: m, ...(compare ? { compare: true } : {}), repeat, ...(note === null ? {} : { note }) });
      const which = repeated ? `${label} #${repeat}` : label;
      if (note !== null) log(`${scenario.name} · ${which}: ${note}`);
      log(
        `${progress()} ${scenario.name} · ${which}: ${formatRate(m.requestsPerSec)} req/s, p99 ${formatMs(m.latencyMicros.p99)} ms, ` +
          `${formatCpuMicros(m.cpuMicrosPerRequest)} µs CPU/req${m.errors > 0 ? `, ${m.errors} ERRORS` : ''}`,
      );
    } catch (err) {
      if (interrupted.aborted) break;
      const skip = err instanceof TargetUnavailable && err.skip;
      rows.push({ target: kind, label, outcome: skip ? 'skipped' : 'failed', reason: (err as Error).message, ...(compare ? { compare: true } : {}), repeat });
      log(`${progress()} ${scenario.name} · ${repeated ? `${label} #${repeat}` : label}: ${skip ? 'skipped' : 'FAILED'}: ${(err as Error).message}`);
    } finally {
      if (ownGateway && target !== null) await target.stop();
    }
  }
  return {
    name: scenario.name,
    title: scenario.title,
    kind: scenario.kind,
    method: scenario.request.method,
    path: scenario.request.path,
    bodyBytes: Buffer.byteLength(scenario.request.body ?? ''),
    connections,
    durationSecs,
    rows,
    ...(scenario.baselineFrom === undefined ? {} : { baselineFrom: scenario.baselineFrom }),
    ...(scenario.baselineGroup === undefined ? {} : { baselineGroup: scenario.baselineGroup }),
    ...(scenario.group === undefined ? {} : { group: scenario.group }),
    ...(scenario.cell === undefined ? {} : { cell: scenario.cell }),
    ...(scenario.reference === undefined ? {} : { reference: scenario.reference }),
  };
}

/**
 * The rows of one scenario, in order: `--repeats` rows per target, interleaved across the
 * targets; with --compare the gateway gets `--compare-rounds` rows per build instead (this, ref,
 * ref, this, ...). A scenario whose row is a verdict over one long run (`runOnce`) gets one row
 * per target whatever --repeats says.
 */
function rowPlan(scenario: Scenario, opts: BenchOptions, comparing: boolean): PlannedRow[] {
  const targets = scenario.targets.filter((t) => opts.targets.includes(t));
  return planRows(targets, scenario.runOnce === true ? 1 : opts.repeats, comparing ? opts.compareRounds : null);
}

function firstLine(cmd: string, args: string[]): string {
  const out = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${out.stdout ?? ''}${out.stderr ?? ''}`.trim().split('\n')[0] ?? '';
}

function describeRun(layout: PinningLayout, opts: BenchOptions, wrkPath: string, cores: readonly number[]): RunInfo {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', REPO_DIR, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', REPO_DIR, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    if (dirty !== '') commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout
  }
  let cpuModel = 'unknown CPU';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // not Linux
  }
  const nginx = findNginx();
  const versions = [
    `node ${process.version}`,
    firstLine(wrkPath, ['-v']).replace(/\s+Copyright.*$/, ''),
    nginx === null ? 'nginx not installed' : firstLine(nginx, ['-v']).replace(/^nginx version:\s*/, ''),
  ];
  const load1 = oneMinuteLoad();
  return {
    startedAt: new Date(),
    commit,
    machine: `${cpuModel}, ${cores.length} usable core${cores.length === 1 ? '' : 's'} (${cores.join(',')}), Linux ${release()}`,
    versions: versions.join('; '),
    pinning: layout.description,
    workers: opts.workers,
    warmupSecs: opts.warmupSecs,
    repeats: opts.repeats,
    loadAverage: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    // Before the bench starts anything, a quiet machine is near 0.
    noiseWarning:
      load1 >= BUSY_LOAD_AVERAGE
        ? `the machine was busy at the start (1-minute load average ${load1.toFixed(2)} on ${cores.length} cores): these numbers are noisy`
        : null,
  };
}

/** The 1-minute load average (os.loadavg() answers three numbers, or zeros off Linux). */
function oneMinuteLoad(): number {
  return loadavg()[0] ?? 0;
}

/** Waits up to `maxSecs` for the 1-minute load average to fall under the busy mark: `make bench`
 * builds first, and the compiler's minute of work would otherwise mark every run busy. */
async function settle(maxSecs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + maxSecs * 1000;
  if (oneMinuteLoad() < BUSY_LOAD_AVERAGE || maxSecs === 0) return;
  log(`bench: waiting up to ${maxSecs} s for the load average (${oneMinuteLoad().toFixed(2)}) to fall under ${BUSY_LOAD_AVERAGE}`);
  while (oneMinuteLoad() >= BUSY_LOAD_AVERAGE && Date.now() < deadline && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** var/bench-results/2025-11-22.md, or with the time added when that day already has a file. */
async function resultsPath(dir: string, at: Date): Promise<string> {
  const iso = at.toISOString();
  const day = iso.slice(0, 10);
  for (const stem of [day, `${day}-${iso.slice(11, 16).replace(':', '')}`, `${day}-${iso.slice(11, 19).replace(/:/g, '')}`]) {
    const p = join(dir, `${stem}.md`);
    if (!existsSync(p)) return p;
  }
  return join(dir, `${day}-${at.getTime()}.md`);
}

async function main(argv: string[]): Promise<number> {
  let opts: BenchOptions;
  try {
    opts = parseBenchOptions(argv, RESULTS_DIR);
  } catch (err) {
    log(`bench: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const all = await loadScenarios();
  if (opts.list) {
    for (const s of all) process.stdout.write(`${s.name.padEnd(32)} ${s.title}\n`);
    return 0;
  }
  let scenarios: Scenario[];
  try {
    scenarios = selectScenarios(all, opts.scenarios);
    if (opts.governed) scenarios = scenarios.map(governedVariant);
  } catch (err) {
    log(`bench: ${(err as Error).message}`);
    return 2;
  }
  const wrkPath = WRK_CANDIDATES.find((p) => existsSync(p));
  if (wrkPath === undefined) {
    log('bench: wrk is not installed (make bench-deps installs wrk and nginx-light)');
    return 2;
  }
  const cores = allowedCores();
  const layout = planPinning({ cores, workers: opts.workers, pin: opts.pin });
  if (layout.pinned && spawnSync('taskset', ['-V']).error !== undefined) {
    log('bench: taskset (util-linux) is missing; install it or run with --pin off');
    return 2;
  }

  const tempDir = await mkdtemp(join(tmpdir(), 'gateway-bench-'));
  const children = new ChildProcesses();
  let compareBuild: CompareBuild | null = null;
  const interruption = new AbortController();
  // Ctrl-C: stop the children (which ends the wrk or start-up being awaited), let main unwind
  // through its finally, and force the exit if something still hangs.
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`bench: ${signal}, stopping every process it started`);
    interruption.abort();
    void children.close();
    setTimeout(() => process.exit(130), 10_000).unref();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', () => {
    children.killAllNow();
    compareBuild?.remove();
  });

  try {
    await settle(opts.settleSecs, interruption.signal);
    if (interruption.signal.aborted) return 130;
    const info = describeRun(layout, opts, wrkPath, cores);
    const rowsOf = (s: Scenario): number => rowPlan(s, opts, opts.compare !== null).length;
    const rowCount = scenarios.reduce((n, s) => n + rowsOf(s), 0);
    const perRowSecs = (s: Scenario): number => opts.warmupSecs + (opts.durationSecs ?? s.durationSecs) + 1;
    const estimateSecs = scenarios.reduce((n, s) => n + perRowSecs(s) * rowsOf(s), 0);
    // The estimate counts every repeat: rowsOf is the interleaved plan itself.
    log(
      `bench: ${scenarios.length} scenarios, ${rowCount} rows (${opts.repeats} repeat${opts.repeats === 1 ? '' : 's'} per target), about ${Math.ceil(estimateSecs / 60)} min`,
    );
    log(`bench: pinning: ${layout.description}`);
    if (info.noiseWarning !== null) log(`bench: WARNING: ${info.noiseWarning}`);
    log(`bench: temp dir ${tempDir}`);

    const ctx: TargetContext = { children, layout, workers: opts.workers, tempDir, mockUrl: null, gcTrace: opts.gcTrace };
    // The mock comes first: every proxy forwards to it, so without it nothing can run.
    const mock = await startMock(ctx);
    ctx.mockUrl = mock.url;
    if (opts.compare !== null) {
      compareBuild = buildCompare(opts.compare, tempDir, log);
      info.compare = { ref: compareBuild.ref, commit: compareBuild.commit, rounds: opts.compareRounds };
    }
    const targets = new Targets(
      ctx,
      compareBuild === null ? null : { cli: compareBuild.cli, label: `@ ${compareBuild.commit} (--compare ${compareBuild.ref})` },
    );
    targets.provide(mock);

    const reportedCores = layout.pinned ? [...new Set([...(layout.proxy ?? []), ...(layout.mock ?? []), ...(layout.load ?? [])])].sort((a, b) => a - b) : cores;
    const mctx: MeasureContext = { children, wrkPath, layout, reportedCores, tempDir };
    let done = 0;
    const progress = (): string => `[${++done}/${rowCount}]`;
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      if (interruption.signal.aborted) break;
      results.push(await runScenario(s, opts, targets, mctx, progress, interruption.signal));
    }
    if (interruption.signal.aborted) return 130;

    const report: BenchReport = { info, scenarios: results };
    const markdown = renderMarkdown(report);
    process.stdout.write(`\n${markdown}`);
    if (opts.outDir !== null) {
      await mkdir(opts.outDir, { recursive: true });
      const path = await resultsPath(opts.outDir, info.startedAt);
      await writeFile(path, markdown);
      await writeFile(path.replace(/\.md$/, '.json'), `${JSON.stringify(report, null, 2)}\n`);
      log(`bench: wrote ${path} (and .json)`);
    }
    const rows = results.flatMap((s) => s.rows);
    const failed = rows.filter((r) => r.outcome === 'failed').length;
    // A row whose requests failed measured an error path, not the proxy.
    const withErrors = rows.filter((r) => (r.measurement?.errors ?? 0) > 0).length;
    if (failed > 0) log(`bench: ${failed} row${failed === 1 ? '' : 's'} FAILED (see the report)`);
    if (withErrors > 0) log(`bench: ${withErrors} row${withErrors === 1 ? '' : 's'} had request errors (⚠ in the report)`);
    return failed > 0 || withErrors > 0 ? 1 : 0;
  } catch (err) {
    if (interruption.signal.aborted) return 130;
    log(`bench: ${(err as Error).message}`);
    return 1;
  } finally {
    await children.stopAll();
    compareBuild?.remove();
    if (opts.keepTemp) log(`bench: kept ${tempDir}`);
    else await rm(tempDir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
