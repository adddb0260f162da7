// `--gc-trace`: the gateway and the baseline run with V8's `--trace-gc-nvp`, which prints one
// line per garbage collection, in every isolate (the main thread and each worker), into the
// process's log. Each line's `allocated=` is the bytes allocated since that isolate's previous
// collection, so their sum over the lines the measured run added, divided by the requests
// served, is the heap bytes each request allocated (nearly all of it in the young generation).
// Resolution is one collection per isolate, which over a run of tens of thousands of requests
// is a few hundred bytes per request at most.
import { open, stat } from 'node:fs/promises';

/** Node's flag for the traced processes. */
export const GC_TRACE_FLAG = '--trace-gc-nvp';

export interface GcFigures {
  /** Heap bytes allocated per request over the measured run. */
  allocatedBytesPerRequest: number;
  scavenges: number;
  markCompacts: number;
  /** Sum and largest of the collections' pauses, in ms (every isolate). */
  pauseMsTotal: number;
  pauseMsMax: number;
}

/** The log's size now: where the measured run's lines will start. */
export async function logOffset(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/** Reads the lines written from `from` on and adds them up. */
export async function gcFiguresSince(path: string, from: number, requests: number): Promise<GcFigures | null> {
  const fh = await open(path, 'r');
  let text: string;
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    await fh.read(buf, 0, buf.length, from);
    text = buf.toString('utf8');
  } finally {
    await fh.close();
  }
  return sumGcLines(text, requests);
}

/** Adds up the `--trace-gc-nvp` lines of a log excerpt; null when it has none. */
export function sumGcLines(text: string, requests: number): GcFigures | null {
  let allocated = 0;
  let scavenges = 0;
  let markCompacts = 0;
  let pauseTotal = 0;
  let pauseMax = 0;
  let lines = 0;
  for (const m of text.matchAll(/ pause=([\d.]+) .*? gc=(\w+) .*? allocated=(\d+) /g)) {
    lines++;
    const pause = Number(m[1]);
    pauseTotal += pause;
    if (pause > pauseMax) pauseMax = pause;
    if (m[2] === 's') scavenges++;
    else markCompacts++;
    allocated += Number(m[3]);
  }
  if (lines === 0) return null;
  return { allocatedBytesPerRequest: requests > 0 ? allocated / requests : NaN, scavenges, markCompacts, pauseMsTotal: pauseTotal, pauseMsMax: pauseMax };
}
