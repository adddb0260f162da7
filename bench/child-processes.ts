// Every process the bench starts goes through here, so each one is stopped at the end even
// when a run fails or is interrupted. Each child leads its own process group and is stopped
// by group id, so helpers it forks (nginx's worker) go with it; nothing is killed by name.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface SpawnOptions {
  /** Cores to pin to with `taskset -c`; null leaves scheduling to the OS. */
  cpus: readonly number[] | null;
  /** stdout and stderr go to this file (read back by `logTail`); without it they are piped. */
  logFile?: string;
  env?: NodeJS.ProcessEnv;
}

interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedChild {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Settles when the process exits (never rejects). */
  exited: Promise<ExitStatus>;
  hasExited(): boolean;
  /** The last lines of its log file, for error messages. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 3000;

/** `taskset -c 0,1 cmd args` when pinned, else `cmd args`. */
export function pinnedCommand(cpus: readonly number[] | null, command: string, args: readonly string[]): [string, string[]] {
  if (cpus === null) return [command, [...args]];
  return ['taskset', ['-c', cpus.join(','), command, ...args]];
}

export class ChildProcesses {
  private readonly live = new Set<ManagedChild>();
  private closed = false;

  spawn(name: string, command: string, args: readonly string[], opts: SpawnOptions): ManagedChild {
    if (this.closed) throw new Error(`not starting ${name}: the bench is shutting down`);
    const [cmd, argv] = pinnedCommand(opts.cpus, command, args);
    let logFd: number | undefined;
    let stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    if (opts.logFile !== undefined) {
      logFd = openSync(opts.logFile, 'a');
      stdio = ['ignore', logFd, logFd];
    }
    // detached: its own process group, so stop() can signal the whole group.
    const proc = spawn(cmd, argv, { stdio, detached: true, env: opts.env ?? process.env });
    if (logFd !== undefined) closeSync(logFd); // the child holds its own copy
    let done = false;
    const exited = new Promise<ExitStatus>((resolve) => {
      proc.once('exit', (code, signal) => {
        done = true;
        resolve({ code, signal });
      });
      proc.once('error', () => {
        done = true;
        resolve({ code: null, signal: null });
      });
    });
    if (proc.pid === undefined) {
      throw new Error(`could not start ${name}: \`${command}\` was not found or is not executable`);
    }
    const child: ManagedChild = {
      name,
      pid: proc.pid,
      process: proc,
      exited,
      hasExited: () => done,
      logTail: (lines = 15) => readLogTail(opts.logFile, lines),
      stop: () => this.stop(child),
    };
    this.live.add(child);
    void exited.then(() => this.live.delete(child));
    return child;
  }

  /** SIGTERM to the group, SIGKILL after a grace period. */
  async stop(child: ManagedChild): Promise<void> {
    if (child.hasExited()) return;
    signalGroup(child.pid, 'SIGTERM');
    const timer = new Promise<'timeout'>((r) => setTimeout(r, STOP_GRACE_MS, 'timeout').unref());
    if ((await Promise.race([child.exited, timer])) === 'timeout') signalGroup(child.pid, 'SIGKILL');
    await child.exited;
    // Members the leader left behind (a forked helper) still hold the group id, so it cannot
    // have been reused yet.
    signalGroup(child.pid, 'SIGKILL');
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((c) => this.stop(c)));
  }

  /** Stops everything and refuses to start anything more (Ctrl-C). */
  async close(): Promise<void> {
    this.closed = true;
    await this.stopAll();
  }

  /** Synchronous last resort for `process.on('exit')`. */
  killAllNow(): void {
    for (const c of this.live) signalGroup(c.pid, 'SIGKILL');
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function readLogTail(file: string | undefined, lines: number): string {
  if (file === undefined) return '';
  try {
    const text = readFileSync(file, 'utf8').trimEnd();
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
