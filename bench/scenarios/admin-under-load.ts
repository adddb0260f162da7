// Issue 9's admin bench: scenario 1's request (openai-nonstream, open front door, through the
// pool) measured while a second load works the admin API from the bench process: one loop
// mints keys (POST /keys, each a store write and a push to the workers) and one reads
// GET /usage over 100,000 metered keys (each read aggregates every key's row of today and
// cuts the top 1000 by spend). Run it beside openai-nonstream: the two gateway rows of the
// same run give the data plane's req/s without and with the admin load; the row's note gives
// the admin figures (mints/s, usage read p50/p99). The gateway's CPU/req includes the admin work.
import { request } from 'undici';
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { meteredStore } from '../governed-gateway.js';

const METERED_KEYS = 100_000;

interface AdminLoop {
  done: number;
  failed: number;
  latenciesMs: number[];
}

/** Back-to-back calls until `stop`; the call in flight when it fires is let finish and counted. */
async function loop(stop: AbortSignal, call: (n: number) => Promise<boolean>): Promise<AdminLoop> {
  const out: AdminLoop = { done: 0, failed: 0, latenciesMs: [] };
  while (!stop.aborted) {
    const started = performance.now();
    const ok = await call(out.done + out.failed);
    out.latenciesMs.push(performance.now() - started);
    if (ok) out.done++;
    else out.failed++;
  }
  return out;
}

function percentileMs(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)]!;
}

async function adminLoad(gateway: { adminUrl: string }, stop: AbortSignal): Promise<string> {
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
  const [mints, reads] = await Promise.all([loop(stop, mint), loop(stop, () => readUsage())]);
  const secs = (performance.now() - started) / 1000;
  const readMs = reads.latenciesMs.sort((a, b) => a - b);
  const failures = mints.failed + reads.failed;
  return (
    `admin beside it: ${mints.done} keys minted (${(mints.done / secs).toFixed(0)} mints/s), ` +
    `${reads.done} GET /usage over ${METERED_KEYS.toLocaleString('en')} metered keys ` +
    `(p50 ${percentileMs(readMs, 50).toFixed(0)} ms, p99 ${percentileMs(readMs, 99).toFixed(0)} ms)` +
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
  gatewayConfig: (files) => meteredStore(files, METERED_KEYS),
  beside: adminLoad,
  order: 12,
};
