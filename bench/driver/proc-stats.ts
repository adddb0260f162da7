// What /proc says about the process under test: CPU time (utime + stime, all threads) and
// peak resident memory (VmHWM), summed over the process and its descendants (nginx's master
// and worker, for instance); and per-core busy time from /proc/stat, to show when the load side
// is saturated or someone else is using the machine.
import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';

/** Clock ticks per second for /proc times (USER_HZ); 100 on every common Linux build. */
const CLOCK_TICKS_PER_SEC = readClockTicks();

function readClockTicks(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in clock ticks, of every thread of the process. */
  cpuTicks: number;
}

/**
 * Parses one /proc/<pid>/stat line. The command name (field 2) is in parentheses and may hold
 * spaces and parentheses itself, so fields are counted from the last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); ppid is field 4, utime 14, stime 15.
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(ppid) || !Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`malformed /proc stat line: ${line.slice(0, 80)}`);
  }
  return { pid: Number(line.slice(0, open).trim()), ppid, cpuTicks: utime + stime };
}

/** Peak resident set (VmHWM) in bytes from a /proc/<pid>/status text; 0 when absent. */
export function parseVmHwmBytes(status: string): number {
  const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return m === null ? 0 : Number(m[1]) * 1024;
}

async function readStat(pid: number): Promise<ProcStat | null> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // gone between listing and reading
  }
}

/** `root` and every live descendant, from one scan of /proc. */
async function processTree(root: number): Promise<ProcStat[]> {
  const entries = await readdir('/proc');
  const stats: ProcStat[] = [];
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    const s = await readStat(Number(e));
    if (s !== null) stats.push(s);
  }
  const inTree = new Set<number>([root]);
  // Parents come before children often but not always: repeat until nothing new joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats) {
      if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
        inTree.add(s.pid);
        grew = true;
      }
    }
  }
  return stats.filter((s) => inTree.has(s.pid));
}

/** CPU time of the tree in microseconds. */
export async function readTreeCpuMicros(root: number): Promise<number> {
  let ticks = 0;
  for (const s of await processTree(root)) ticks += s.cpuTicks;
  return (ticks * 1e6) / CLOCK_TICKS_PER_SEC;
}

/** Sum of VmHWM over the tree, in bytes. */
export async function readTreePeakRssBytes(root: number): Promise<number> {
  let bytes = 0;
  for (const s of await processTree(root)) {
    try {
      bytes += parseVmHwmBytes(await readFile(`/proc/${s.pid}/status`, 'utf8'));
    } catch {
      // exited meanwhile
    }
  }
  return bytes;
}

/**
 * Resets VmHWM to the current RSS (`echo 5 > clear_refs`, Linux 4.0+), so the next reading is
 * the peak of one run rather than of the process's life. False when the kernel refused.
 */
export async function resetTreePeakRss(root: number): Promise<boolean> {
  let ok = true;
  for (const s of await processTree(root)) {
    try {
      await writeFile(`/proc/${s.pid}/clear_refs`, '5');
    } catch {
      ok = false;
    }
  }
  return ok;
}

/** Busy and total jiffies of one core. */
export interface CoreTimes {
  core: number;
  busy: number;
  total: number;
}

/** Parses the `cpuN` lines of /proc/stat (the aggregate `cpu` line is skipped). */
export function parseCoreTimes(procStat: string): CoreTimes[] {
  const cores: CoreTimes[] = [];
  for (const line of procStat.split('\n')) {
    const m = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (m === null) continue;
    const v = m[2]!.trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest times are already in user/nice).
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    let total = 0;
    for (const time of v.slice(0, 8)) total += time;
    cores.push({ core: Number(m[1]), busy: total - idle, total });
  }
  return cores;
}

export async function readCoreTimes(): Promise<CoreTimes[]> {
  return parseCoreTimes(await readFile('/proc/stat', 'utf8'));
}

/** Percent busy per core between two readings, keyed by core number. */
export function coreBusyPercent(before: readonly CoreTimes[], after: readonly CoreTimes[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const a of after) {
    const b = before.find((x) => x.core === a.core);
    if (b === undefined) continue;
    const total = a.total - b.total;
    out.set(a.core, total > 0 ? (100 * (a.busy - b.busy)) / total : 0);
  }
  return out;
}
