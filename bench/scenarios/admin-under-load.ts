// Issue 9's admin bench: scenario 1's request (openai-nonstream, open front door, through the
// pool) measured while a second load works the admin API from the bench process, paced like an
// operator's tooling: one loop mints keys (POST /keys, each a store write and a one-key push to
// the workers) at MINTS_PER_SEC, and one reads GET /usage over 100,000 metered keys (each read
// aggregates every key's row of today in the store and cuts the top 1000 by spend) every
// USAGE_READ_EVERY_MS. Run it beside openai-nonstream: the two gateway rows of the
// same run give the data plane's req/s without and with the admin load; the row's note gives
// the admin figures (mints/s, usage read p50/p99). The gateway's CPU/req includes the admin work.
import { request } from 'undici';
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { meteredStore } from '../governed-gateway.js';

const METERED_KEYS = 100_000;

// What an operator's tooling does: mint keys at a steady modest rate and refresh a usage
// dashboard about once a second. Each loop is paced (a call starts every `everyMs`, or right
// after the previous one when that ran longer), so the load is the same whatever the build.
const MINTS_PER_SEC = 10;
const USAGE_READ_EVERY_MS = 1_000;

interface AdminLoop {
  done: number;
  failed: number;
  latenciesMs: number[];
}

/** Calls one at a time, started every `everyMs`, until `stop`; the call in flight when it fires is let finish and counted. */
async function pacedLoop(stop: AbortSignal, everyMs: number, call: (n: number) => Promise<boolean>): Promise<AdminLoop> {
  const out: AdminLoop = { done: 0, failed: 0, latenciesMs: [] };
  const first = performance.now();
  while (!stop.aborted) {
    const started = performance.now();
    const ok = await call(out.done + out.failed);
    out.latenciesMs.push(performance.now() - started);
    if (ok) out.done++;
    else out.failed++;
    const next = first + (out.done + out.failed) * everyMs;
    const wait = next - performance.now();
    if (wait > 0 && !stop.aborted)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        function done(): void {
          clearTimeout(timer);
          stop.removeEventListener('abort', done);
          resolve();
        }
        stop.addEventListener('abort', done, { once: true });
      });
  }
  return out;
}

function percentileMs(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)]!;
}

/** Which of the two loops run: both in the scenario; one alone in admin-cost's `--only`, to split the cost. */
export type AdminLoops = 'both' | 'mints' | 'usage';

export async function adminLoad(gateway: { adminUrl: string }, stop: AbortSignal, loops: AdminLoops = 'both'): Promise<string> {
  const started = performance.now();
  const mint = (n: number): Promise<boolean> =>
    request(`${gateway.adminUrl}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-mint-${n}`, allowed_pools: ['*'] }),
    }).then(async (res) => {
      await res.body.dump();
      return res.statusCode === 201;
    });
  let checked = false;
  const readUsage = (): Promise<boolean> =>
    request(`${gateway.adminUrl}/usage`).then(async (res) => {
      if (res.statusCode !== 200) {
        await res.body.dump();
        return false;
      }
      const view = (await res.body.json()) as { by_key: unknown[]; by_key_truncated: boolean };
      // The read must really cover the seeded keys: a full top-1000 page and the cut.
      if (!checked && !(view.by_key.length === 1000 && view.by_key_truncated)) throw new Error('GET /usage does not see the seeded keys');
      checked = true;
      return true;
    });
  const idle: AdminLoop = { done: 0, failed: 0, latenciesMs: [] };
  const [mints, reads] = await Promise.all([
    loops === 'usage' ? idle : pacedLoop(stop, 1000 / MINTS_PER_SEC, mint),
    loops === 'mints' ? idle : pacedLoop(stop, USAGE_READ_EVERY_MS, () => readUsage()),
  ]);
  const secs = (performance.now() - started) / 1000;
  const mintMs = mints.latenciesMs.sort((a, b) => a - b);
  const readMs = reads.latenciesMs.sort((a, b) => a - b);
  const failures = mints.failed + reads.failed;
  return (
    `admin beside it (paced: ${MINTS_PER_SEC} mints/s, a GET /usage every ${USAGE_READ_EVERY_MS} ms): ` +
    `${mints.done} keys minted (${(mints.done / secs).toFixed(1)} mints/s, p50 ${percentileMs(mintMs, 50).toFixed(1)} ms, p99 ${percentileMs(mintMs, 99).toFixed(1)} ms), ` +
    `${reads.done} GET /usage over ${METERED_KEYS.toLocaleString('en')} metered keys ` +
    `(p50 ${percentileMs(readMs, 50).toFixed(1)} ms, p99 ${percentileMs(readMs, 99).toFixed(1)} ms)` +
    (failures > 0 ? `, ${failures} ADMIN CALLS FAILED` : '')
  );
}

export const scenario: Scenario = {
  name: 'admin-under-load',
  title: `OpenAI chat, non-stream (scenario 1) while the admin API mints keys and reads GET /usage over ${METERED_KEYS.toLocaleString('en')} metered keys`,
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig: (files) => meteredStore(files, METERED_KEYS),
  beside: adminLoad,
  order: 12,
};
