// Settings that are read once, at boot, and that a reload therefore cannot put in effect: the
// listeners (uWS and the TLS front bind once), the TLS material, the store and its flush
// interval, the worker count, the drain deadline, and the key-signing secret main mints with.
// POST /config/reload compares the files it just read with what the process booted with and
// names each one that changed, instead of answering "reloaded" as if all of it were live.
import type { LoadResult } from './load-result.js';

type Doc = Record<string, unknown>;

/** Config paths read at boot only. */
const BOOT_ONLY_PATHS: readonly (readonly string[])[] = [
  ['listen'],
  ['admin_listen'],
  ['tls'],
  ['store'],
  ['advanced', 'worker_threads'],
  ['advanced', 'shutdown_drain_secs'],
  ['governance', 'flush_interval_secs'],
  ['auth', 'signing_key'],
];

/** Resolved secrets read at boot only (a changed file behind an unchanged reference counts too). */
const BOOT_ONLY_SECRETS: readonly string[] = ['tls.cert', 'tls.key', 'tls.client_ca', 'auth.signing_key'];

function at(document: unknown, path: readonly string[]): unknown {
  let node = document;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Doc)[key] : undefined;
  return node;
}

/** One line per boot-only setting whose value differs between what the process booted with and `now`. */
export function bootOnlyChanges(boot: LoadResult, now: LoadResult): string[] {
  const out: string[] = [];
  const reported = new Set<string>();
  for (const path of BOOT_ONLY_PATHS) {
    if (JSON.stringify(at(boot.config, path)) === JSON.stringify(at(now.config, path))) continue;
    reported.add(path.join('.'));
    out.push(`${path.join('.')}: changed in the files, read only at start; in effect after a restart (POST /restart)`);
  }
  for (const name of BOOT_ONLY_SECRETS) {
    if (reported.has(name) || reported.has(name.split('.')[0]!)) continue;
    if (boot.secrets.get(name) !== now.secrets.get(name))
      out.push(`${name}: the secret it refers to changed; read only at start, in effect after a restart (POST /restart)`);
  }
  return out;
}
