// Overload (issue 15): the gateway with advanced.max_inflight_per_worker = 32 in front of a mock
// that takes 20 ms per answer. The wrk row runs at the threshold (32 connections per worker:
// nothing is shed). The note then drives, from the bench process, a closed loop at the
// threshold (unloaded) and one at five times it, each for the row's duration, and reports
// served vs shed, the p99 of the served requests in both and their ratio (the claim: within
// 2x), anything other than 200/503, and whether the gateway survived. A shed client pauses the
// upstream latency before trying again (as long as a served request takes), so 5x the clients
// offer 5x the load, not an unbounded retry storm. The closed loops run with the bench process
// pinned to wrk's cores, off the gateway's. Named only: it fills
// both cores. node dist/bench/run.js --scenario overload-5x --duration 10
import { execFileSync } from 'node:child_process';
import { request } from 'undici';
import type { NoteRow, Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { closedLoop, percentile, type ClosedLoopResult } from '../overload/closed-loop.js';

const THRESHOLD = 32;
const UPSTREAM_LATENCY_MS = 20;

async function alive(url: string, pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
    const res = await request(`${url}/healthz`);
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

function describe(r: ClosedLoopResult): string {
  const total = r.served + r.shed + r.other;
  return (
    `${r.clients} clients: ${r.served} served (${(r.served / r.secs).toFixed(0)}/s), ${r.shed} shed (${total === 0 ? 0 : ((100 * r.shed) / total).toFixed(1)}%), ` +
    `served p50 ${percentile(r.servedMs, 50).toFixed(1)} ms p99 ${percentile(r.servedMs, 99).toFixed(1)} ms, shed p99 ${percentile(r.shedMs, 99).toFixed(1)} ms` +
    (r.other > 0 ? `, ${r.other} OTHER (${r.otherExamples.join(' | ')})` : '')
  );
}

/**
 * Runs `work` with the bench process (all its threads) on `cores`, as wrk would be, so the
 * load it drives does not take the gateway's core; the affinity is restored afterwards.
 */
async function onLoadCores<T>(cores: readonly number[] | null, work: () => Promise<T>): Promise<T> {
  if (cores === null) return work();
  const pid = String(process.pid);
  const before = /list:\s*(\S+)/.exec(execFileSync('taskset', ['-p', '-c', pid], { encoding: 'utf8' }))?.[1];
  execFileSync('taskset', ['-a', '-p', '-c', cores.join(','), pid], { stdio: 'ignore' });
  try {
    return await work();
  } finally {
    if (before !== undefined) execFileSync('taskset', ['-a', '-p', '-c', before, pid], { stdio: 'ignore' });
  }
}

async function overloadNote(url: string, row: NoteRow): Promise<string> {
  return onLoadCores(row.loadCores, () => measureOverload(url, row));
}

async function measureOverload(url: string, row: NoteRow): Promise<string> {
  const threshold = THRESHOLD * row.workers;
  process.stderr.write(`overload-5x: unloaded closed loop, ${threshold} clients, ${row.durationSecs} s...\n`);
  const unloaded = await closedLoop(url, OPENAI_NONSTREAM_REQUEST, threshold, row.durationSecs, UPSTREAM_LATENCY_MS);
  process.stderr.write(`overload-5x: 5x closed loop, ${threshold * 5} clients, ${row.durationSecs} s...\n`);
  const loaded = await closedLoop(url, OPENAI_NONSTREAM_REQUEST, threshold * 5, row.durationSecs, UPSTREAM_LATENCY_MS);
  const up = await alive(url, row.pid);
  const ratio = percentile(loaded.servedMs, 99) / percentile(unloaded.servedMs, 99);
  const answeredAll = loaded.other === 0 && unloaded.other === 0;
  const verdict = up && answeredAll && ratio <= 2 ? 'PASS' : 'FAIL';
  return (
    `overload ${verdict}: at the threshold ${describe(unloaded)}; at 5x ${describe(loaded)}; ` +
    `served p99 at 5x / unloaded = ${ratio.toFixed(2)}x (claim: within 2x); every request answered 200 or 503: ${answeredAll ? 'yes' : 'NO'}; ` +
    `gateway ${up ? 'up, /healthz 200' : 'DOWN or unhealthy'} afterwards`
  );
}

export const scenario: Scenario = {
  name: 'overload-5x',
  title: `Overload: max_inflight_per_worker ${THRESHOLD}, mock latency ${UPSTREAM_LATENCY_MS} ms; wrk at the threshold, then closed loops at 1x and 5x (served vs shed, served p99)`,
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: THRESHOLD,
  durationSecs: 10,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig(files) {
    const providers = files.providers.providers as Record<string, Record<string, unknown>>;
    providers.mock = { ...providers.mock!, headers: { 'x-mock-latency-ms': String(UPSTREAM_LATENCY_MS) } };
    files.gateway.advanced = { ...(files.gateway.advanced as Record<string, unknown>), max_inflight_per_worker: THRESHOLD };
  },
  gatewayNote: overloadNote,
  namedOnly: true,
  runOnce: true,
  order: 91,
};
