// preauth-flood (issue 46): scenario 1 as a keyed caller (openai-nonstream-governed's request,
// gateway and key) while two unauthenticated clients, each its own process pinned to wrk's
// cores, POST 4 MB `[[[[...]]]]` bodies without a key as fast as the gateway answers them. The
// claim: the keyed caller's p99 within 10% of scenario 1 alone. Run it beside its reference in
// one run, `--scenario openai-nonstream-governed,preauth-flood`: the report's "vs reference"
// gives the p99 ratio. The row's note gives what the flood clients saw (requests, statuses,
// latencies). `preauth-flood-sink` is its control: the same flood sent to a refusing sink on the
// load cores (decision 306). The flood stops hurting once authentication runs on the headers before the body
// is parsed (a refusal costs a header read); until then each flood request is a JSON.parse of
// 4 MB of nesting on a worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BesideTarget, Scenario } from '../scenario.js';
import { GOVERNED_REQUEST, governGateway } from '../governed-gateway.js';
import { pinnedCommand } from '../child-processes.js';

const FLOOD_CLIENTS = 2;
const FLOOD_BODY_BYTES = 4 * 1024 * 1024;
const CLIENT = fileURLToPath(new URL('../preauth/flood-client.js', import.meta.url));
const SINK = fileURLToPath(new URL('../preauth/refusing-sink.js', import.meta.url));

interface FloodReport {
  requests: number;
  statuses: Record<string, number>;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

function startClient(url: string, cores: readonly number[] | null): { child: ChildProcess; report: Promise<FloodReport | string> } {
  const [command, args] = pinnedCommand(cores, process.execPath, [CLIENT, url, String(FLOOD_BODY_BYTES)]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  // The bench ending any other way must not leave a flood running.
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  const report = new Promise<FloodReport | string>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', kill);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as FloodReport);
      } catch {
        resolve(`a flood client ended without a report (exit ${code ?? signal}): ${err.trim().slice(-300)}`);
      }
    });
  });
  return { child, report };
}

/** The refusing sink on the load cores (preauth-flood-sink): its URL and how to stop it. */
async function startSink(cores: readonly number[] | null): Promise<{ url: string; stop(): void }> {
  const [command, args] = pinnedCommand(cores, process.execPath, [SINK]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the refusing sink exited (${code}) before it listened`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop() {
      process.off('exit', kill);
      child.kill('SIGKILL');
    },
  };
}

async function flood(gateway: BesideTarget, stop: AbortSignal, toSink: boolean): Promise<string> {
  const sink = toSink ? await startSink(gateway.loadCores) : null;
  const target = sink?.url ?? gateway.url;
  const clients = Array.from({ length: FLOOD_CLIENTS }, () => startClient(target, gateway.loadCores));
  await new Promise<void>((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));
  // The request in flight is let finish (SIGTERM), so a slow refusal shows in max, not as an error.
  for (const c of clients) c.child.kill('SIGTERM');
  const reports = await Promise.all(clients.map((c) => c.report));
  sink?.stop();
  const parts = reports.map((r, i) =>
    typeof r === 'string'
      ? `client ${i + 1}: ${r}`
      : `client ${i + 1}: ${r.requests} requests (${Object.entries(r.statuses)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}), p50 ${r.p50_ms.toFixed(1)} ms, p99 ${r.p99_ms.toFixed(1)} ms, max ${r.max_ms.toFixed(0)} ms`,
  );
  return `flood${toSink ? ' (to the refusing sink on the load cores, not the gateway)' : ''}: ${FLOOD_CLIENTS} unauthenticated clients, ${FLOOD_BODY_BYTES / 1024 / 1024} MB nested bodies, each its own process${gateway.loadCores === null ? '' : ` on cores ${gateway.loadCores.join(',')}`}; ${parts.join('; ')}`;
}

const row = (name: string, title: string, toSink: boolean, order: number): Scenario => ({
  name,
  title,
  kind: 'throughput',
  request: GOVERNED_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig: (files) => governGateway(files),
  beside: (gateway, stop) => flood(gateway, stop, toSink),
  reference: 'openai-nonstream-governed',
  ...(toSink ? { namedOnly: true } : {}),
  order,
});

export const scenarios: Scenario[] = [
  row('preauth-flood', 'Scenario 1 with a key, while two unauthenticated clients flood 4 MB [[[[...]]]] bodies', false, 11.7),
  // The control: the same flood clients on the same cores, sent to a bare uWS server that
  // refuses like the gateway. What the keyed caller loses here is the load side's share (on a
  // 2-core machine the flood shares a core with wrk and the mock), not the gateway's.
  row('preauth-flood-sink', 'preauth-flood with the flood sent to a refusing sink on the load cores (the control)', true, 11.71),
];
