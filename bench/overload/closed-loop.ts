// A closed-loop load from the bench process for the overload scenario: N clients, each on its
// own keep-alive connection, sending the next request as soon as the last one is answered, for
// a fixed time. Unlike wrk it keeps latencies by status, so the p99 of the *served* requests can
// be read apart from the fast 503s of shed ones. A shed client waits out `shedPauseMs` from its
// request's start before the next one (the time a served request would have taken), so N
// clients offer N clients' worth of load rather than a retry storm of 503s.
import { Pool } from 'undici';
import type { ScenarioRequest } from '../scenario.js';

export interface ClosedLoopResult {
  clients: number;
  secs: number;
  served: number;
  shed: number;
  /** Other statuses and transport errors. */
  other: number;
  otherExamples: string[];
  /** Sorted latencies of the served (2xx) requests, ms. */
  servedMs: number[];
  /** Sorted latencies of the shed (503) requests, ms. */
  shedMs: number[];
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function closedLoop(baseUrl: string, req: ScenarioRequest, clients: number, secs: number, shedPauseMs = 0): Promise<ClosedLoopResult> {
  const pool = new Pool(baseUrl, { connections: clients, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const out: ClosedLoopResult = { clients, secs, served: 0, shed: 0, other: 0, otherExamples: [], servedMs: [], shedMs: [] };
  const endAt = performance.now() + secs * 1000;
  const client = async (): Promise<void> => {
    while (performance.now() < endAt) {
      const started = performance.now();
      try {
        const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
        await res.body.dump();
        const ms = performance.now() - started;
        if (res.statusCode >= 200 && res.statusCode < 300) {
          out.served++;
          out.servedMs.push(ms);
        } else if (res.statusCode === 503) {
          out.shed++;
          out.shedMs.push(ms);
          if (ms < shedPauseMs) await new Promise((r) => setTimeout(r, shedPauseMs - ms));
        } else {
          out.other++;
          if (out.otherExamples.length < 3) out.otherExamples.push(`HTTP ${res.statusCode}`);
        }
      } catch (err) {
        out.other++;
        if (out.otherExamples.length < 3) out.otherExamples.push((err as Error).message);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, client));
  } finally {
    await pool.close();
  }
  out.servedMs.sort((a, b) => a - b);
  out.shedMs.sort((a, b) => a - b);
  return out;
}
