// Instructions per request of the whole gateway, as valgrind's callgrind counts them: on an idle
// machine two runs agree to about 1%, where req/s of one build swings by a third. Not on a busy
// one: V8's optimizing compiler is then still at work in the counted window and code still runs
// at the baseline tier (scenario 1: 122k idle, 131k-184k beside a CI run). The gateway
// (one worker) runs under callgrind with counting off; WARM_UP requests let V8 settle its
// compiled code, then counting is switched on for COUNTED requests and off again
// (`callgrind_control --instr`), and the total is divided by COUNTED. The mock runs outside valgrind.
//
//   node dist/bench/gateway-instructions.js [--scenario openai-nonstream,...] [--cli other/dist/src/cli.js]
//
// `--keep DIR` writes the callgrind profile there. The gateway runs with `--perf-basic-prof`, so
// the profile's JIT addresses can be named from /tmp/perf-PID.map (callgrind knows no JIT names).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { stringify } from 'yaml';
import { ChildProcesses } from './child-processes.js';
import { DIST_DIR } from './paths.js';
import { loadScenarios, selectScenarios } from './scenario-catalog.js';
import type { Scenario } from './scenario.js';
import { freePort } from './targets/free-port.js';
import { GATEWAY_CLI, gatewayConfigs } from './targets/gateway.js';
import { waitUntilAnswering } from './targets/readiness.js';

const WARM_UP = 8_000;
const COUNTED = 8_000;
const CONNECTIONS = 16;

async function drive(pool: Pool, scenario: Scenario, count: number): Promise<void> {
  const { method, path, body, headers } = scenario.request;
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < count) {
      next++;
      const res = await pool.request({ method, path, body, headers: headers ?? {} });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${scenario.name}: ${res.statusCode} ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, one));
}

function callgrindControl(pid: number, arg: string): void {
  const out = spawnSync('callgrind_control', [arg, String(pid)], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`callgrind_control ${arg} ${pid}: ${out.stderr}`);
}

async function count(scenario: Scenario, cli: string, dir: string, keep: string | undefined): Promise<number> {
  const children = new ChildProcesses();
  let pool: Pool | null = null;
  try {
    const mockPort = await freePort();
    const mock = children.spawn('mock provider', process.execPath, [join(DIST_DIR, 'src/mock/main.js'), '--port', String(mockPort)], {
      cpus: null,
      logFile: join(dir, 'mock.log'),
    });
    await waitUntilAnswering(mock, { url: `http://127.0.0.1:${mockPort}/`, timeoutMs: 30_000 });
    const [port, adminPort] = [await freePort(), await freePort()];
    const files = gatewayConfigs({ listenPort: port, adminPort, mockUrl: `http://127.0.0.1:${mockPort}`, workers: 1 });
    scenario.gatewayConfig?.(files);
    const configPath = join(dir, `${scenario.name}.yaml`);
    writeFileSync(configPath, stringify(files.gateway));
    writeFileSync(join(dir, 'providers.yaml'), stringify(files.providers));
    const outFile = join(keep ?? dir, `callgrind.${scenario.name}.out`);
    const gateway = children.spawn(
      'gateway under callgrind',
      'valgrind',
      ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`, process.execPath, '--perf-basic-prof', cli, '--config', configPath],
      { cpus: null, logFile: join(dir, 'gateway.log') },
    );
    await waitUntilAnswering(gateway, { url: `http://127.0.0.1:${port}/healthz`, status: 200, timeoutMs: 600_000 });
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1 });
    await drive(pool, scenario, WARM_UP);
    callgrindControl(gateway.pid, '--instr=on');
    await drive(pool, scenario, COUNTED);
    callgrindControl(gateway.pid, '--instr=off');
    await pool.close();
    pool = null;
    // callgrind writes its profile as the gateway exits, which can take longer than
    // ChildProcesses.stop()'s grace before SIGKILL: signal it and wait.
    process.kill(gateway.pid, 'SIGTERM');
    await gateway.exited;
    const totals = /^totals:\s+(\d+)/m.exec(readFileSync(outFile, 'utf8'));
    if (totals === null) throw new Error(`no totals in ${outFile}${gateway.logTail()}`);
    return Number(totals[1]) / COUNTED;
  } finally {
    await pool?.close();
    await children.stopAll();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'openai-nonstream' },
      cli: { type: 'string', default: GATEWAY_CLI },
      keep: { type: 'string' },
    },
  });
  const scenarios = selectScenarios(await loadScenarios(), values.scenario.split(','));
  const dir = mkdtempSync(join(tmpdir(), 'gw-instructions-'));
  try {
    console.log(`| scenario | instructions per request (${values.cli}) |\n|---|---|`);
    for (const s of scenarios) {
      const perRequest = await count(s, values.cli, dir, values.keep);
      console.log(`| ${s.name} | ${(perRequest / 1000).toFixed(1)}k |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
