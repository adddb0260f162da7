// One row: check the target answers right, warm it up, then run wrk while reading the target's
// CPU and memory and the cores' busy time from /proc around the measured run.
import { join } from 'node:path';
import type { ChildProcesses } from './child-processes.js';
import { coreBusyPercent, readCoreTimes, readTreeCpuMicros, readTreePeakRssBytes, resetTreePeakRss } from './driver/proc-stats.js';
import { gcFiguresSince, logOffset } from './driver/gc-trace.js';
import { runWrk, totalErrors, type WrkRun } from './driver/wrk.js';
import type { PinningLayout } from './pinning.js';
import { preflight } from './preflight.js';
import type { RowMeasurement } from './report.js';
import type { Scenario } from './scenario.js';
import type { RunningTarget } from './targets/target.js';

export interface MeasureContext {
  children: ChildProcesses;
  wrkPath: string;
  layout: PinningLayout;
  /** Cores whose busy share is reported (the layout's, or all when unpinned). */
  reportedCores: readonly number[];
  tempDir: string;
}

export interface RowPlan {
  scenario: Scenario;
  connections: number;
  durationSecs: number;
  warmupSecs: number;
}

/** wrk's per-request timeout: long enough for a 500-chunk stream under full load. */
const WRK_TIMEOUT_SECS = 10;

export function wrkScriptPath(tempDir: string, scenario: Scenario): string {
  return join(tempDir, `${scenario.name}.lua`);
}

/** A row's measurement, and the note of the scenario's `beside` load when it ran one. */
export interface MeasuredRow {
  measurement: RowMeasurement;
  besideNote: string | null;
}

export async function measureRow(ctx: MeasureContext, target: RunningTarget, plan: RowPlan): Promise<MeasuredRow> {
  if (!target.alive()) throw new Error(`${target.label} is no longer running; its log ends with:\n${target.logTail()}`);
  await preflight(target.url, target.label, plan.scenario);

  const run: WrkRun = {
    url: target.url + plan.scenario.request.path,
    scriptPath: wrkScriptPath(ctx.tempDir, plan.scenario),
    connections: plan.connections,
    threads: ctx.layout.loadThreads,
    durationSecs: plan.warmupSecs,
    timeoutSecs: WRK_TIMEOUT_SECS,
  };
  if (plan.warmupSecs > 0) await runWrk(ctx.children, ctx.wrkPath, run, ctx.layout.load);

  const gcFrom = target.gcLog === undefined ? 0 : await logOffset(target.gcLog);
  const rssReset = await resetTreePeakRss(target.pid);
  const coresBefore = await readCoreTimes();
  const cpuBefore = await readTreeCpuMicros(target.pid);
  const beside = plan.scenario.beside;
  const stopBeside = new AbortController();
  // A failed beside load is a note, never an unhandled rejection that would end the run.
  const besideRun =
    beside !== undefined && target.kind === 'gateway' && target.adminUrl !== undefined
      ? beside(
          { url: target.url, adminUrl: target.adminUrl, pid: target.pid, durationSecs: plan.durationSecs, loadCores: ctx.layout.load },
          stopBeside.signal,
        ).catch((err: Error) => `the beside load failed: ${err.message}`)
      : null;
  const startedNs = process.hrtime.bigint();
  let result: Awaited<ReturnType<typeof runWrk>>;
  try {
    result = await runWrk(ctx.children, ctx.wrkPath, { ...run, durationSecs: plan.durationSecs }, ctx.layout.load);
  } finally {
    stopBeside.abort();
  }
  const wallMicros = Number(process.hrtime.bigint() - startedNs) / 1000;
  const cpuMicros = (await readTreeCpuMicros(target.pid)) - cpuBefore;
  const coresAfter = await readCoreTimes();
  const peakRssBytes = await readTreePeakRssBytes(target.pid);
  // The admin call in flight when wrk ended finishes after the measurement is taken.
  const besideNote = besideRun === null ? null : await besideRun;
  if (!target.alive()) throw new Error(`${target.label} exited during the run; its log ends with:\n${target.logTail()}`);

  const gc = target.gcLog === undefined ? null : await gcFiguresSince(target.gcLog, gcFrom, result.requests);
  const busy = coreBusyPercent(coresBefore, coresAfter);
  const coreBusy: Record<string, number> = {};
  for (const core of ctx.reportedCores) coreBusy[String(core)] = busy.get(core) ?? 0;
  const measurement: RowMeasurement = {
    requests: result.requests,
    requestsPerSec: result.requestsPerSec,
    latencyMicros: { p50: result.latencyMicros.p50, p99: result.latencyMicros.p99, p999: result.latencyMicros.p999 },
    errors: totalErrors(result.errors),
    cpuMicrosPerRequest: result.requests > 0 ? cpuMicros / result.requests : NaN,
    cpuPercent: wallMicros > 0 ? (100 * cpuMicros) / wallMicros : 0,
    peakRssBytes,
    peakRssLifetime: !rssReset,
    coreBusyPercent: coreBusy,
    ...(gc === null ? {} : { gc }),
  };
  return { measurement, besideNote };
}
