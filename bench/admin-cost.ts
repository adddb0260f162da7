// What the admin load of `admin-under-load` costs in CPU, measured without the data plane:
// `node dist/bench/admin-cost.js [--secs 10] [--rounds 2] [--keys 100000] [--only mints|usage]`. The gateway of that
// scenario (metering, `--keys` keys with today's usage in a sqlite store) runs pinned to one core;
// phases alternate idle and the scenario's paced admin load, and each phase reports the gateway
// process's CPU (utime + stime from /proc, every thread: main, workers, piscina) per second.
// Wall-clock throughput on a shared machine is noise; CPU time is what the admin work takes from
// the data plane on the same core, so this is the figure to compare with scenario 1's CPU/s.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { stringify } from 'yaml';
import { ChildProcesses } from './child-processes.js';
import { freePort } from './targets/free-port.js';
import { GATEWAY_CLI, GATEWAY_NODE_ARGS, gatewayConfigs } from './targets/gateway.js';
import { meteredStore } from './governed-gateway.js';
import { adminLoad, type AdminLoops } from './scenarios/admin-under-load.js';

const { values } = parseArgs({
  options: {
    secs: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    keys: { type: 'string', default: '100000' },
    only: { type: 'string', default: 'both' },
  },
});
const secs = Number(values.secs);
const rounds = Number(values.rounds);
const keys = Number(values.keys);
const loops = values.only as AdminLoops;
if (!['both', 'mints', 'usage'].includes(loops)) throw new Error('--only takes both, mints or usage');

/** CPU ms per thread of `pid` (the main thread is the one whose id is the pid). */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid === String(pid) ? 'main' : tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return out;
}

async function phase(pid: number, label: string, load: ((stop: AbortSignal) => Promise<string>) | null): Promise<void> {
  const before = threadCpuMs(pid);
  const started = performance.now();
  const stop = new AbortController();
  const running = load?.(stop.signal) ?? Promise.resolve('');
  await new Promise((r) => setTimeout(r, secs * 1000));
  stop.abort();
  const note = await running;
  const wall = (performance.now() - started) / 1000;
  const after = threadCpuMs(pid);
  let total = 0;
  let main = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    total += used;
    if (tid === 'main') main = used;
  }
  console.log(`| ${label} | ${(total / wall).toFixed(1)} | ${(main / wall).toFixed(1)} | ${((total - main) / wall).toFixed(1)} | ${note} |`);
}

const children = new ChildProcesses();
const dir = mkdtempSync(join(tmpdir(), 'gw-admin-cost-'));
try {
  const adminPort = await freePort();
  // No data plane runs: the mock URL is never called.
  const files = gatewayConfigs({ listenPort: await freePort(), adminPort, mockUrl: 'http://127.0.0.1:9', workers: 1 });
  meteredStore(files, keys);
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, stringify(files.gateway));
  writeFileSync(join(dir, 'providers.yaml'), stringify(files.providers));
  const gateway = children.spawn('gateway', process.execPath, [...GATEWAY_NODE_ARGS, GATEWAY_CLI, '--config', configPath], {
    cpus: [0],
    logFile: join(dir, 'gateway.log'),
  });
  const adminUrl = `http://127.0.0.1:${adminPort}/api/v1/admin`;
  for (let i = 0; ; i++) {
    const up = await request(`${adminUrl}/info`).then(
      async (r) => {
        await r.body.dump();
        return r.statusCode === 200;
      },
      () => false,
    );
    if (up) break;
    if (i > 300 || gateway.hasExited()) throw new Error(`the gateway did not start:\n${gateway.logTail()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 2_000));
  console.log(`Gateway (1 worker, pinned to core 0, ${keys.toLocaleString('en')} metered keys, sqlite), no data-plane traffic, ${secs} s per phase.\n`);
  console.log('| phase | gateway CPU ms/s | main thread ms/s | other threads ms/s | admin figures |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (let r = 0; r < rounds; r++) {
    await phase(gateway.pid, 'idle', null);
    await phase(gateway.pid, 'admin load', (stop) => adminLoad({ adminUrl }, stop, loops));
  }
} finally {
  await children.close();
  rmSync(dir, { recursive: true, force: true });
}
