// What the tests need from the machine beyond node_modules, installed when missing so that
// `npm test` passes on a fresh machine with nothing else done. Debian packages only (the
// machine's apt); run as root, as CI and the developers' machines are. Under CI a missing
// prerequisite that cannot be installed fails the run: no test is skipped for a missing tool.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Each entry: a file whose presence says the package is installed, the package, who needs it. */
const DEBIAN_PREREQUISITES = [
  { path: '/usr/bin/promtool', pkg: 'prometheus', why: 'the metrics tests run `promtool check metrics` and `promtool check rules`' },
  { path: '/usr/bin/prometheus', pkg: 'prometheus', why: 'a metrics test scrapes the gateway with a real Prometheus server' },
  { path: '/usr/bin/chromium', pkg: 'chromium', why: "the sign-in page test drives Debian's chromium with playwright-core" },
];

/** Services the store tests talk to, with the command that starts each one when stopped (as root). */
const SERVICES = [
  {
    name: 'PostgreSQL',
    port: 5432,
    why: 'the postgres store tests (conformance, several nodes, faults)',
    start: ['sh', ['-c', 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start']],
  },
  {
    name: 'the Redis-protocol server (valkey)',
    port: 6379,
    why: 'the valkey store tests (conformance, several nodes, faults)',
    start: [
      'sh',
      [
        '-c',
        'mkdir -p /var/lib/redis /var/log/redis && redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
      ],
    ],
  },
];

/** Whether something accepts TCP connections on 127.0.0.1:port (checked in a child: this module is synchronous). */
function listening(port) {
  const probe = `const s=require('net').connect(${port},'127.0.0.1');s.setTimeout(2000,()=>process.exit(1));s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

function ensureServices() {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  for (const svc of SERVICES) {
    if (listening(svc.port)) continue;
    console.error(
      `test prerequisites: ${svc.name} is not listening on 127.0.0.1:${svc.port} (${svc.why}); ${root ? 'starting it' : 'cannot start it (not root)'}`,
    );
    if (root) run(svc.start[0], svc.start[1]);
    for (let i = 0; i < 20 && !listening(svc.port); i++) spawnSync('sleep', ['0.5']);
    if (listening(svc.port)) continue;
    const message = `test prerequisites: ${svc.name} is still not listening on 127.0.0.1:${svc.port}`;
    if (process.env.CI) {
      console.error(`${message}; under CI no test is skipped, so the run stops here`);
      process.exit(1);
    }
    console.error(`${message}; the store tests that need it will fail saying so`);
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

export function ensureTestPrerequisites() {
  ensureServices();
  const missing = DEBIAN_PREREQUISITES.filter((p) => !existsSync(p.path));
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  for (const p of missing) console.error(`test prerequisites: ${p.path} is missing (${p.why}); installing ${p.pkg}`);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && run('apt-get', ['update', '-qq'])) run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
  const still = missing.filter((p) => !existsSync(p.path));
  if (still.length === 0) return;
  const message = `test prerequisites: could not install ${pkgs.join(' ')}${root ? '' : ' (not root)'}`;
  if (process.env.CI) {
    console.error(`${message}; under CI no test is skipped, so the run stops here`);
    process.exit(1);
  }
  console.error(`${message}; the tests that need them will say so`);
}
