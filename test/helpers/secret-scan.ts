// The secret scan of a test run (issue 15): every secret the run configures or mints is
// registered here (the config's secret fields and the env values they reference, the admin
// token, minted key secrets and AWS secret keys, anything a test adds), and every log line
// the gateway writes (its stdout and stderr, captured by helpers/gateway.ts), every log file it
// writes and every admin response (helpers/admin-client.ts) is scanned for all of them. A
// finding fails the test file loudly, in a root `after` hook (and at exit for a gateway still
// running then), naming where the secret was found but never the secret itself.
import { after } from 'node:test';

/** Shorter strings are test placeholders ('x', 'secret'), not secrets: matching them would be noise. */
const MIN_SECRET_LENGTH = 8;

const secrets = new Set<string>();
const findings: string[] = [];
/** Texts to scan once more at the end, so a secret registered after a line was written still counts. */
const sources: Array<{ where: string; text: () => string }> = [];

/** Registers a secret of this run (no-op for short or empty strings). */
export function registerSecret(secret: string | undefined | null): void {
  if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) secrets.add(secret);
}

export function registeredSecrets(): ReadonlySet<string> {
  return secrets;
}

/** The findings of `secrets` in `text`: one line each, naming `where` and never the secret. */
export function secretsIn(where: string, text: string, among: Iterable<string>): string[] {
  const out: string[] = [];
  for (const secret of among) {
    if (text.includes(secret)) out.push(`${where} carries a registered secret (${secret.length} chars, starting ${JSON.stringify(secret.slice(0, 3))})`);
  }
  return out;
}

let scannedTexts = 0;

/** Checks `text` now against every registered secret; records a finding for each one present. */
export function scanText(where: string, text: string): void {
  scannedTexts++;
  findings.push(...secretsIn(where, text, secrets));
}

/** A text that keeps growing (a process's output): scanned in full when the run ends. */
export function watchText(where: string, text: () => string): void {
  sources.push({ where, text });
}

/** Key names whose values in a config are secrets (the schema's secret fields). */
const SECRET_KEYS = /^(key|token|secret|password|private_key|client_secret|secret_access_key|session_token|admin_token|api_key)$/;

/**
 * Registers every secret of a config document: literal values of secret fields, and the
 * values of the environment variables their `{ env: NAME }` references name (from `env`).
 */
export function registerConfigSecrets(doc: unknown, env: NodeJS.ProcessEnv = process.env): void {
  const walk = (node: unknown, key: string | null): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, key);
      return;
    }
    if (node !== null && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      if (key !== null && SECRET_KEYS.test(key) && typeof obj.env === 'string') registerSecret(env[obj.env]);
      for (const [k, v] of Object.entries(obj)) walk(v, k);
      return;
    }
    if (typeof node === 'string' && key !== null && SECRET_KEYS.test(key)) registerSecret(node);
  };
  walk(doc, null);
}

/** Registers the values of environment variables that name secrets (ADMIN_TOKEN, *_KEY, ...). */
export function registerEnvSecrets(env: NodeJS.ProcessEnv | undefined): void {
  for (const [name, value] of Object.entries(env ?? {})) if (/TOKEN|SECRET|PASSWORD|_KEY$|^KEY/.test(name)) registerSecret(value);
}

/** Registers the secrets an admin response hands out once (mint, rotate, AWS credential). */
export function registerIssuedSecrets(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const b = body as Record<string, unknown>;
  for (const field of ['secret', 'aws_secret_access_key', 'access_token', 'client_secret']) {
    if (typeof b[field] === 'string') registerSecret(b[field]);
  }
}

function finalScan(): string[] {
  for (const s of sources) scanText(s.where, s.text());
  sources.length = 0;
  return findings.splice(0);
}

after(() => {
  const found = finalScan();
  // SECRET_SCAN_REPORT=1: one line per test file, to show the scan ran and what it covered.
  if (process.env.SECRET_SCAN_REPORT === '1')
    process.stderr.write(`secret scan: ${secrets.size} secrets, ${scannedTexts} texts scanned, ${found.length} findings\n`);
  if (found.length > 0) throw new Error(`SECRET SCAN: ${found.length} finding${found.length === 1 ? '' : 's'}:\n${found.join('\n')}`);
});

process.once('exit', () => {
  const found = finalScan();
  if (found.length === 0) return;
  process.stderr.write(`\nSECRET SCAN: ${found.length} finding(s):\n${found.join('\n')}\n`);
  process.exitCode = 1;
});
