// A/B of two gateway builds on one scenario, interleaved: `node dist/bench/ab.js --a DIR --b DIR
// --scenario NAME [--rounds 5]`. Each round runs the bench (bench/run.ts, gateway row only) once
// per build, alternating which goes first (AB, BA, AB, ...) so that drift on a noisy machine
// falls on both sides; the report gives every round, the medians and the median of the
// per-round ratios. DIR is a checkout with a built dist/ (e.g. a `git worktree` of the commit
// before a change). The scenario may differ per side (`--a-scenario`, `--b-scenario`), e.g. an
// open front door on A against a governed one on B.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST_DIR, RESULTS_DIR } from './paths.js';
import type { BenchReport, RowMeasurement } from './report.js';

const USAGE = `usage: node dist/bench/ab.js --a DIR --b DIR --scenario NAME [flags]
  --a DIR, --b DIR         checkouts with a built dist/ (the gateway of each is measured)
  --scenario NAME          the scenario for both sides (or --a-scenario / --b-scenario)
  --rounds N               interleaved rounds (default 5)
  --duration SECS          measured seconds per row (default 5)
  --warmup SECS            warm-up per row (default 2)
  --workers N              gateway worker threads (default 1)
  --label-a, --label-b     names in the report (default: the folder names)
  --no-write               print only (default: also var/bench-results/<date>-ab-<scenario>.md)`;

interface Side {
  label: string;
  cli: string;
  scenario: string;
  rows: RowMeasurement[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One bench run of one side; the gateway row's measurement, or an error naming the cause. */
function runOnce(side: Side, flags: string[]): RowMeasurement {
  const out = mkdtempSync(join(tmpdir(), 'gateway-ab-'));
  try {
    // One row per run: the rounds are this tool's repeats.
    const r = spawnSync(
      process.execPath,
      [join(DIST_DIR, 'bench/run.js'), '--scenario', side.scenario, '--targets', 'mock,gateway', '--repeats', '1', '--out', out, ...flags],
      {
        env: { ...process.env, BENCH_GATEWAY_CLI: side.cli },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const json = readdirSync(out).find((f) => f.endsWith('.json'));
    if (json === undefined) throw new Error(`the bench of ${side.label} wrote no result (exit ${r.status}):\n${(r.stderr ?? '').slice(-2000)}`);
    const report = JSON.parse(readFileSync(join(out, json), 'utf8')) as BenchReport;
    const row = report.scenarios[0]?.rows.find((x) => x.target === 'gateway');
    if (row?.outcome !== 'ok' || row.measurement === undefined)
      throw new Error(`${side.label}: the gateway row ${row?.outcome ?? 'is missing'}: ${row?.reason ?? ''}`);
    if (row.measurement.errors > 0) throw new Error(`${side.label}: ${row.measurement.errors} request errors under load: not a valid measurement`);
    return row.measurement;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function render(a: Side, b: Side, rounds: number, flags: string[], load: string): string {
  const lines: string[] = [];
  lines.push(`# A/B: ${a.label} (${a.scenario}) vs ${b.label} (${b.scenario})`, '');
  lines.push(`${rounds} interleaved rounds (AB, BA, ...); bench flags \`${flags.join(' ')}\`; load average at the start ${load}.`, '');
  lines.push(
    '| round | A req/s | B req/s | B/A req/s | A CPU µs/req | B CPU µs/req | B/A CPU | A p50 ms | B p50 ms | A p99 ms | B p99 ms | B−A p50 µs | B−A p99 µs |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const rate: number[] = [];
  const cpu: number[] = [];
  const addedP50: number[] = [];
  const addedP99: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const x = a.rows[i]!;
    const y = b.rows[i]!;
    rate.push(y.requestsPerSec / x.requestsPerSec);
    cpu.push(y.cpuMicrosPerRequest / x.cpuMicrosPerRequest);
    addedP50.push(y.latencyMicros.p50 - x.latencyMicros.p50);
    addedP99.push(y.latencyMicros.p99 - x.latencyMicros.p99);
    lines.push(
      `| ${i + 1} | ${fmt(x.requestsPerSec)} | ${fmt(y.requestsPerSec)} | ${fmt(rate[i]!, 3)} | ${fmt(x.cpuMicrosPerRequest, 1)} | ${fmt(y.cpuMicrosPerRequest, 1)} | ${fmt(cpu[i]!, 3)} | ${fmt(x.latencyMicros.p50 / 1000, 2)} | ${fmt(y.latencyMicros.p50 / 1000, 2)} | ${fmt(x.latencyMicros.p99 / 1000, 2)} | ${fmt(y.latencyMicros.p99 / 1000, 2)} | ${fmt(addedP50[i]!)} | ${fmt(addedP99[i]!)} |`,
    );
  }
  const m = (side: Side, f: (r: RowMeasurement) => number): number => median(side.rows.map(f));
  lines.push(
    `| **median** | **${fmt(m(a, (r) => r.requestsPerSec))}** | **${fmt(m(b, (r) => r.requestsPerSec))}** | **${fmt(median(rate), 3)}** | ${fmt(
      m(a, (r) => r.cpuMicrosPerRequest),
      1,
    )} | ${fmt(
      m(b, (r) => r.cpuMicrosPerRequest),
      1,
    )} | **${fmt(median(cpu), 3)}** | ${fmt(m(a, (r) => r.latencyMicros.p50) / 1000, 2)} | ${fmt(m(b, (r) => r.latencyMicros.p50) / 1000, 2)} | ${fmt(m(a, (r) => r.latencyMicros.p99) / 1000, 2)} | ${fmt(m(b, (r) => r.latencyMicros.p99) / 1000, 2)} | **${fmt(median(addedP50))}** | **${fmt(median(addedP99))}** |`,
  );
  lines.push(
    '',
    `B/A req/s is the median of the per-round ratios: above 1 means B is faster; B/A CPU above 1 means B costs more per request. B−A p50/p99 is the median of the per-round differences: what B adds to the latency (for two scenarios, e.g. a gate against none, the added p50/p99).`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      scenario: { type: 'string' },
      'a-scenario': { type: 'string' },
      'b-scenario': { type: 'string' },
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '2' },
      workers: { type: 'string', default: '1' },
      'label-a': { type: 'string' },
      'label-b': { type: 'string' },
      'no-write': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const rounds = Number(values.rounds);
  const sa = values['a-scenario'] ?? values.scenario;
  const sb = values['b-scenario'] ?? values.scenario;
  if (values.a === undefined || values.b === undefined || sa === undefined || sb === undefined || !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 50)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const side = (dir: string, scenario: string, label: string | undefined): Side => {
    const cli = join(resolve(dir), 'dist/src/cli.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build that checkout first (npm run build)`);
    return { label: label ?? resolve(dir).split('/').pop()!, cli, scenario, rows: [] };
  };
  const a = side(values.a, sa, values['label-a']);
  const b = side(values.b, sb, values['label-b']);
  // No settling between rounds: they run back to back on purpose, each side under the same load.
  const flags = ['--duration', values.duration!, '--warmup', values.warmup!, '--workers', values.workers!, '--settle', '0'];
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  for (let i = 0; i < rounds; i++) {
    for (const s of i % 2 === 0 ? [a, b] : [b, a]) {
      const m = runOnce(s, flags);
      s.rows.push(m);
      process.stderr.write(`ab: round ${i + 1}/${rounds} ${s.label}: ${fmt(m.requestsPerSec)} req/s, ${fmt(m.cpuMicrosPerRequest, 1)} µs CPU/req\n`);
    }
  }
  const markdown = render(a, b, rounds, flags, load);
  process.stdout.write(`\n${markdown}`);
  if (!values['no-write']) {
    await mkdir(RESULTS_DIR, { recursive: true });
    const stamp = new Date()
      .toISOString()
      .slice(0, 16)
      .replace(/[-:T]/g, '')
      .replace(/^(\d{8})/, '$1-');
    const path = join(RESULTS_DIR, `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6)}-ab-${sb}.md`);
    await writeFile(path, markdown);
    process.stderr.write(`ab: wrote ${path}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: Error) => {
    process.stderr.write(`ab: ${err.message}\n`);
    process.exitCode = 1;
  },
);
