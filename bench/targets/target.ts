// What every target module gives the runner: a started process, its URL and pid. The runner
// measures the pid (and its descendants) and stops it at the end.
import type { ChildProcesses } from '../child-processes.js';
import type { PinningLayout } from '../pinning.js';
import type { TargetKind } from '../scenario.js';

export interface RunningTarget {
  kind: TargetKind;
  /** For the report, e.g. `gateway (2 workers)`. */
  label: string;
  /** Base URL, `http://127.0.0.1:<port>`; scenario paths are appended. */
  url: string;
  /** The admin API's base URL (`.../api/v1/admin`); gateways only. */
  adminUrl?: string;
  /** The process whose CPU and memory are measured (with its descendants). */
  pid: number;
  cpus: readonly number[] | null;
  /** Its log file when it runs with --trace-gc-nvp (`--gc-trace`), for the per-row GC figures. */
  gcLog?: string;
  /** False once the process has exited (a crash mid-suite fails the rows after it). */
  alive(): boolean;
  logTail(): string;
  stop(): Promise<void>;
}

/** Everything a target needs to start. */
export interface TargetContext {
  children: ChildProcesses;
  layout: PinningLayout;
  /** Gateway worker threads; also nginx workers and baseline threads, for a like-for-like row. */
  workers: number;
  /** A private temp dir for configs and logs. */
  tempDir: string;
  /** Where every proxy forwards to (null while starting the mock itself). */
  mockUrl: string | null;
  /** `--gc-trace`: start the gateway and the baseline with --trace-gc-nvp. */
  gcTrace?: boolean;
}

/**
 * Thrown when a target cannot run here. `skip` (nginx not installed) leaves a note in the
 * report; anything else marks the rows failed.
 */
export class TargetUnavailable extends Error {
  constructor(
    message: string,
    readonly skip: boolean,
  ) {
    super(message);
    this.name = 'TargetUnavailable';
  }
}

export type StartTarget = (ctx: TargetContext) => Promise<RunningTarget>;

/** The mock's URL, or a clear error when a proxy is started before it. */
export function upstreamOf(ctx: TargetContext): string {
  if (ctx.mockUrl === null) throw new Error('the mock provider must be started before any proxy');
  return ctx.mockUrl;
}
