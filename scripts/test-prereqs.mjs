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
  { path: '/usr/bin/chromium', pkg: 'chromium', why: 'the sign-in page test drives Debian\'s chromium with playwright-core' },
];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

export function ensureTestPrerequisites() {
  const missing = DEBIAN_PREREQUISITES.filter((p) => !existsSync(p.path));
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  for (const p of missing) console.error(`test prerequisites: ${p.path} is missing (${p.why}); installing ${p.pkg}`);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const ok = root && run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
  const still = missing.filter((p) => !existsSync(p.path));
  if (still.length === 0) return;
  const message = `test prerequisites: could not install ${pkgs.join(' ')}${root ? '' : ' (not root)'}`;
  if (process.env.CI) {
    console.error(`${message}; under CI no test is skipped, so the run stops here`);
    process.exit(1);
  }
  console.error(`${message}; the tests that need them will say so`);
}
