// What the soak reads from the gateway process every interval: resident memory, open file
// descriptors (/proc/PID/fd: sockets, files, pipes), how long GET /healthz takes, and from
// /metrics each thread's V8 heap and event-loop delay (gateway_thread_*), so growth can be
// put on a thread. Pure parts (table, verdict) are separate from the reads so they can be
// tested on fixed numbers.
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'undici';

export interface SoakSample {
  /** Seconds since the measured run started. */
  atSecs: number;
  rssBytes: number;
  openFds: number;
  /** GET /healthz round trip, ms (NaN when it failed). */
  healthzMs: number;
  /** Requests the mixed traffic finished so far (all loops). */
  requests: number;
  /** From /metrics (absent when the scrape failed): V8 heap of main and of all workers, bytes. */
  heapMainBytes?: number;
  heapWorkersBytes?: number;
  /** The worst thread's event-loop delay over its last 5 s sample, ms. */
  loopDelayP99Ms?: number;
  loopDelayMaxMs?: number;
  /** Taken while a worker recycle was under way: shown, but not judged (the worker is down). */
  recycling?: boolean;
}

export interface ThreadRuntime {
  heapMainBytes: number;
  heapWorkersBytes: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** gateway_thread_* from the gateway's /metrics; null when the page could not be read. */
export async function readThreadRuntime(url: string, bearer: string): Promise<ThreadRuntime | null> {
  try {
    const res = await request(`${url}/metrics`, { headers: { authorization: `Bearer ${bearer}` } });
    const text = await res.body.text();
    return res.statusCode === 200 ? threadRuntimeOf(text) : null;
  } catch {
    return null;
  }
}

/** The gateway_thread_* samples of an exposition page, summed and maxed as SoakSample keeps them. */
export function threadRuntimeOf(page: string): ThreadRuntime {
  const out: ThreadRuntime = { heapMainBytes: 0, heapWorkersBytes: 0, loopDelayP99Ms: 0, loopDelayMaxMs: 0 };
  for (const m of page.matchAll(/^gateway_thread_heap_used_bytes\{thread="([^"]+)"\} (\S+)$/gm)) {
    if (m[1] === 'main') out.heapMainBytes = Number(m[2]);
    else out.heapWorkersBytes += Number(m[2]);
  }
  for (const m of page.matchAll(/^gateway_thread_event_loop_delay_seconds\{thread="[^"]+",stat="(p99|max)"\} (\S+)$/gm)) {
    const ms = Number(m[2]) * 1000;
    if (m[1] === 'p99') out.loopDelayP99Ms = Math.max(out.loopDelayP99Ms, ms);
    else out.loopDelayMaxMs = Math.max(out.loopDelayMaxMs, ms);
  }
  return out;
}

/** VmRSS from /proc/PID/status, bytes; 0 when the process is gone. */
export async function readRssBytes(pid: number): Promise<number> {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Entries of /proc/PID/fd; -1 when unreadable. */
export async function countOpenFds(pid: number): Promise<number> {
  try {
    return (await readdir(`/proc/${pid}/fd`)).length;
  } catch {
    return -1;
  }
}

export async function healthzMs(url: string): Promise<number> {
  const started = performance.now();
  try {
    const res = await request(`${url}/healthz`);
    await res.body.dump();
    return res.statusCode === 200 ? performance.now() - started : NaN;
  } catch {
    return NaN;
  }
}

/** 30 s for a long run (the lead's 30 minutes); about ten samples for a short one. */
export function sampleIntervalSecs(durationSecs: number): number {
  return Math.max(1, Math.min(30, Math.floor(durationSecs / 10)));
}

export interface SoakVerdict {
  /** RSS spread after warm-up, (max - min) / min: GC saw-teeth included, for the record. */
  rssSpread: number;
  /**
   * RSS growth after warm-up: the median of the last third of the steady samples over the
   * median of the first third, minus 1. Medians, so a GC saw-tooth is not taken for a leak.
   */
  rssGrowth: number;
  /** Least-squares RSS slope after warm-up, MiB per hour. */
  rssSlopeMiBPerHour: number;
  /** Open fds at the end minus after warm-up. */
  fdGrowth: number;
  rssFlat: boolean;
  fdsFlat: boolean;
  healthzFailures: number;
  pass: boolean;
  text: string;
}

/** RSS within 10% after warm-up (rssGrowth). */
const RSS_FLAT_SPREAD = 0.1;
/** Sockets come and go with the connection pools: a handful either way is not a leak. */
const FD_GROWTH_ALLOWED = 8;

/**
 * The verdict over the samples after warm-up (the first third, at least one sample, is the
 * warm-up: JIT, pools, caches filling). Needs three samples after warm-up for a slope.
 */
export function soakVerdict(samples: readonly SoakSample[], unexpectedErrors: number): SoakVerdict {
  const skip = Math.max(1, Math.floor(samples.length / 3));
  const steady = samples.slice(skip).filter((s) => s.rssBytes > 0 && s.recycling !== true);
  const healthzFailures = samples.filter((s) => Number.isNaN(s.healthzMs) && s.recycling !== true).length;
  if (steady.length < 3) {
    return {
      rssSpread: NaN,
      rssGrowth: NaN,
      rssSlopeMiBPerHour: NaN,
      fdGrowth: NaN,
      rssFlat: false,
      fdsFlat: false,
      healthzFailures,
      pass: false,
      text: `too few samples after warm-up (${steady.length}; need 3): run longer`,
    };
  }
  const rss = steady.map((s) => s.rssBytes);
  const min = Math.min(...rss);
  const rssSpread = (Math.max(...rss) - min) / min;
  const xs = steady.map((s) => s.atSecs);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = rss.reduce((a, b) => a + b, 0) / rss.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (rss[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  const rssSlopeMiBPerHour = den === 0 ? 0 : ((num / den) * 3600) / 1048576;
  const third = Math.max(1, Math.floor(rss.length / 3));
  const rssGrowth = median(rss.slice(-third)) / median(rss.slice(0, third)) - 1;
  const fdGrowth = steady[steady.length - 1]!.openFds - steady[0]!.openFds;
  const rssFlat = rssGrowth <= RSS_FLAT_SPREAD;
  const fdsFlat = fdGrowth <= FD_GROWTH_ALLOWED;
  const pass = rssFlat && fdsFlat && healthzFailures === 0 && unexpectedErrors === 0;
  const text =
    `${pass ? 'PASS' : 'FAIL'}: after warm-up RSS grew ${(100 * rssGrowth).toFixed(1)}% (median of the last third over the first; flat within ${100 * RSS_FLAT_SPREAD}%: ${rssFlat ? 'yes' : 'NO'}), ` +
    `spread ${(100 * rssSpread).toFixed(1)}% (GC saw-teeth included), ` +
    `slope ${rssSlopeMiBPerHour.toFixed(1)} MiB/h; open fds ${steady[0]!.openFds} -> ${steady[steady.length - 1]!.openFds} ` +
    `(growth ${fdGrowth}, allowed ${FD_GROWTH_ALLOWED}: ${fdsFlat ? 'no growth' : 'GROWING'}); ` +
    `healthz failures ${healthzFailures}; errors outside the injected faults ${unexpectedErrors}`;
  return { rssSpread, rssGrowth, rssSlopeMiBPerHour, fdGrowth, rssFlat, fdsFlat, healthzFailures, pass, text };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The samples as a markdown table. */
export function samplesTable(samples: readonly SoakSample[]): string {
  const lines = [
    '| t (s) | RSS MiB | heap MiB main | heap MiB workers | loop delay p99 / max ms | open fds | healthz ms | requests so far |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const mib = (bytes: number | undefined): string => (bytes === undefined ? '–' : (bytes / 1048576).toFixed(1));
  for (const s of samples) {
    const delay = s.loopDelayP99Ms === undefined ? '–' : `${s.loopDelayP99Ms.toFixed(1)} / ${s.loopDelayMaxMs!.toFixed(1)}`;
    lines.push(
      `| ${s.atSecs.toFixed(0)}${s.recycling === true ? ' (recycling)' : ''} | ${mib(s.rssBytes)} | ${mib(s.heapMainBytes)} | ${mib(s.heapWorkersBytes)} | ${delay} | ${s.openFds} | ${Number.isNaN(s.healthzMs) ? 'FAILED' : s.healthzMs.toFixed(1)} | ${s.requests} |`,
    );
  }
  return lines.join('\n');
}
