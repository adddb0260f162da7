// The soak (issue 15): a long governed run that must stay flat. wrk drives the governed
// OpenAI non-stream request through a pool of three where one member fails a fifth of its
// requests (failovers all the time); beside it, the bench process streams in two protocols,
// injects upstream faults, mints, uses and revokes keys, and applies a config (pool weights
// changed) every sample interval, and recycles the worker once half-way (SIGUSR2), while it
// samples the gateway's RSS, each thread's heap and event-loop delay (/metrics), open fds and
// /healthz time every 30 s (about ten samples in a short run). The row's note is the verdict
// and the table. wrk's row counts the connections the recycle cut as errors. Run only when named: node dist/bench/run.js --scenario soak
// --duration 1800 (make soak SOAK_SECS=1800).
import type { BesideTarget, Scenario } from '../scenario.js';
import { BENCH_SECRET, GOVERNED_REQUEST, governGateway } from '../governed-gateway.js';
import { RECYCLE_WINDOW_MS, applyLoop, emptyCounts, faultLoop, keyLoop, recycleWorker, streamLoop } from '../soak/mixed-traffic.js';
import { countOpenFds, healthzMs, readRssBytes, readThreadRuntime, sampleIntervalSecs, samplesTable, soakVerdict, type SoakSample } from '../soak/samples.js';

/** The deployment config the gateway booted with, re-applied (weights changed) during the run. */
let appliedConfig: Record<string, unknown> | null = null;

async function soakBeside(gateway: BesideTarget, stop: AbortSignal): Promise<string> {
  const counts = emptyCounts();
  const started = performance.now();
  const samples: SoakSample[] = [];
  const intervalMs = sampleIntervalSecs(gateway.durationSecs) * 1000;
  const sample = async (): Promise<void> => {
    const recycling = performance.now() < counts.recyclingUntilMs;
    const s: SoakSample = {
      atSecs: (performance.now() - started) / 1000,
      rssBytes: await readRssBytes(gateway.pid),
      openFds: await countOpenFds(gateway.pid),
      healthzMs: await healthzMs(gateway.url),
      requests: counts.requests,
      ...(await readThreadRuntime(gateway.url, BENCH_SECRET)),
      ...(recycling || performance.now() < counts.recyclingUntilMs ? { recycling: true } : {}),
    };
    samples.push(s);
    process.stderr.write(
      `soak: t=${s.atSecs.toFixed(0)}s rss=${(s.rssBytes / 1048576).toFixed(1)}MiB fds=${s.openFds} healthz=${s.healthzMs.toFixed(1)}ms requests=${s.requests} injected=${counts.injected} unexpected=${counts.unexpected}\n`,
    );
  };
  await sample();
  const timer = setInterval(() => void sample(), intervalMs);
  const recycle = setTimeout(
    () => {
      recycleWorker(gateway.pid, counts);
      process.stderr.write(`soak: recycled a worker (SIGUSR2) at t=${((performance.now() - started) / 1000).toFixed(0)}s\n`);
    },
    (gateway.durationSecs * 1000) / 2,
  );
  try {
    await Promise.all([
      streamLoop(gateway.url, BENCH_SECRET, stop, counts),
      faultLoop(gateway.url, BENCH_SECRET, stop, counts),
      keyLoop(gateway.url, gateway.adminUrl, stop, counts),
      applyLoop(gateway.adminUrl, appliedConfig!, Math.max(1000, intervalMs), stop, counts),
    ]);
  } finally {
    clearInterval(timer);
    clearTimeout(recycle);
  }
  // No sample after the stop: wrk's connections are gone by then and the fds would drop.
  const verdict = soakVerdict(samples, counts.unexpected);
  return (
    `soak ${verdict.text}. Beside wrk: ${counts.requests} mixed requests (streams, faults, keys), ${counts.injected} injected faults answered, ` +
    `${counts.minted} keys minted, ${counts.revoked} revoked, ${counts.applied} config applies, ` +
    `${counts.recycles} worker recycle (${counts.cutByRecycle} answers cut within ${RECYCLE_WINDOW_MS / 1000} s of it)` +
    (counts.examples.length > 0 ? `; unexpected: ${counts.examples.join(' | ')}` : '') +
    `\n\n${samplesTable(samples)}\n`
  );
}

export const scenario: Scenario = {
  name: 'soak',
  title: 'Soak: governed non-stream load through a pool with a flaky member, plus streams, faults and key mint/revoke; RSS and fds sampled',
  kind: 'throughput',
  request: GOVERNED_REQUEST,
  targets: ['gateway'],
  connections: 16,
  durationSecs: 1800,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig(files) {
    governGateway(files);
    const providers = files.providers.providers as Record<string, Record<string, unknown>>;
    providers.flaky = { ...providers.mock!, headers: { 'x-mock-fail-ratio': '0.2' } };
    files.gateway.models = {
      ...(files.gateway.models as Record<string, unknown>),
      m2: { provider: 'mock', upstream_model: 'mock-gpt' },
      m3: { provider: 'flaky', upstream_model: 'mock-gpt' },
    };
    files.gateway.pools = { default: { members: [{ model: 'm' }, { model: 'm2' }, { model: 'm3' }] } };
    // Unlocked, so the soak can apply configs through the admin API.
    files.gateway.config = { locked: false };
    // /metrics, for each thread's heap and event-loop delay.
    files.gateway.export = { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } };
    appliedConfig = files.gateway;
  },
  beside: soakBeside,
  namedOnly: true,
  runOnce: true,
  order: 90,
};
