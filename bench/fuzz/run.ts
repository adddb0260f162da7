// The long fuzz run (issue 15): `make fuzz` / `npm run fuzz -- --minutes 10` /
// `node dist/bench/fuzz/run.js --minutes 10 [--seed N]`. Starts the mock and a gateway, then
// runs every codec, JSON-limits, ingress, admin-body and admin-name property in turn, each round with a fresh seed, until the time
// is up; prints cases tried per property and every failure (seed, path and counterexample, so
// `fc.assert(prop, { seed, path })` replays it). Exit 1 on any failure or if the gateway died.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { startMockProvider } from '../../src/mock/server.js';
import { DIST_DIR } from '../paths.js';
import { freePort } from '../targets/free-port.js';
import { codecProperties, type FuzzProperty } from './codec-properties.js';
import { fuzzConfig, fuzzSecrets } from './fuzz-config.js';
import { closeIngressAgent, ingressProperties, statusCounts, stillHealthy } from './ingress-properties.js';
import { adminProperties, closeAdminAgent } from './admin-properties.js';
import { adminNameProperties, closeAdminNameAgent } from './admin-name-properties.js';
import { jsonLimitsProperties } from './json-limits-properties.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, 'runs-per-round': { type: 'string', default: '200' } },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, not ${values.minutes}`);
let seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const runsPerRound = Number(values['runs-per-round']);

const log = (line: string): void => void process.stderr.write(`${line}\n`);

const mock = await startMockProvider({ port: 0 });
const dir = mkdtempSync(join(tmpdir(), 'gw-fuzz-'));
const secrets = fuzzSecrets();
const { config, providers } = fuzzConfig(mock.url, secrets);
const port = await freePort();
const adminPort = await freePort();
writeFileSync(
  join(dir, 'gateway.yaml'),
  stringify({
    ...config,
    listen: `127.0.0.1:${port}`,
    admin_listen: `127.0.0.1:${adminPort}`,
    providers_file: 'providers.yaml',
    advanced: { worker_threads: 1 },
  }),
);
writeFileSync(join(dir, 'providers.yaml'), stringify({ providers }));
let gatewayOutput = '';
const gateway = spawn(process.execPath, [join(DIST_DIR, 'src/cli.js'), '--config', join(dir, 'gateway.yaml')], { stdio: ['ignore', 'pipe', 'pipe'] });
gateway.stdout.on('data', (c: Buffer) => (gatewayOutput += c.toString()));
gateway.stderr.on('data', (c: Buffer) => (gatewayOutput += c.toString()));
const url = `http://127.0.0.1:${port}`;
let exitCode = 0;
try {
  for (let i = 0; i < 300 && !(await stillHealthy(url)); i++) {
    if (gateway.exitCode !== null) throw new Error(`the gateway exited:\n${gatewayOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const adminUrl = `http://127.0.0.1:${adminPort}/api/v1/admin`;
  const props: FuzzProperty[] = [
    ...codecProperties(),
    ...jsonLimitsProperties(),
    ...ingressProperties({ url, secrets: Object.values(secrets) }),
    ...adminProperties({ adminUrl, secrets: Object.values(secrets) }),
    ...adminNameProperties({ adminUrl, socketDir: dir }),
  ];
  const tried = new Map<string, number>(props.map((p) => [p.name, 0]));
  const failures: string[] = [];
  const endAt = Date.now() + minutes * 60_000;
  log(`fuzz: ${props.length} properties, ${minutes} min, first seed ${seed}, gateway ${url}`);
  let rounds = 0;
  while (Date.now() < endAt) {
    for (const p of props) {
      if (Date.now() >= endAt) break;
      const s = seed++;
      const r = await fc.check(p.property, { seed: s, numRuns: runsPerRound, endOnFailure: false });
      tried.set(p.name, tried.get(p.name)! + r.numRuns);
      if (r.failed) {
        const line = `FAILURE ${p.name}: seed ${s} path ${r.counterexamplePath}: ${String((r.errorInstance as Error | undefined)?.message ?? '').slice(0, 400)}\n  counterexample: ${fc.stringify(r.counterexample).slice(0, 1000)}`;
        failures.push(line);
        log(line);
      }
    }
    rounds++;
    const total = [...tried.values()].reduce((a, b) => a + b, 0);
    log(`fuzz: round ${rounds}, ${total} cases tried, ${failures.length} failures, ${Math.max(0, Math.round((endAt - Date.now()) / 1000))} s left`);
  }
  const healthy = gateway.exitCode === null && (await stillHealthy(url));
  const leaked = Object.values(secrets).filter((s) => gatewayOutput.includes(s));
  const total = [...tried.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`\n# Fuzz run: ${minutes} min, ${rounds} rounds, seeds from ${values.seed ?? 'time'}\n\n| property | cases tried |\n|---|---:|\n`);
  for (const [name, n] of tried) process.stdout.write(`| ${name} | ${n} |\n`);
  process.stdout.write(
    `\n**${total} cases tried, ${failures.length} failures**; gateway ${healthy ? 'still healthy' : 'DEAD or unhealthy'}; secrets in the gateway's log: ${leaked.length}\n`,
  );
  process.stdout.write(
    `\ningress answers by status: ${[...statusCounts]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}\n`,
  );
  for (const f of failures) process.stdout.write(`\n${f}\n`);
  if (failures.length > 0 || !healthy || leaked.length > 0) exitCode = 1;
} finally {
  gateway.kill('SIGTERM');
  await new Promise((r) => (gateway.exitCode !== null ? r(null) : gateway.once('exit', r)));
  await closeIngressAgent();
  await closeAdminAgent();
  await closeAdminNameAgent();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
