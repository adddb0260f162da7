// Starts the real gateway process (dist/src/cli.js) on loopback ports with a config written
// to a temp dir, and stops it. Tests talk to it over HTTP only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from './ports.js';
import { registerConfigSecrets, registerEnvSecrets, watchText } from './secret-scan.js';

export const CLI = join(process.cwd(), 'dist', 'src', 'cli.js');

export interface GatewayFiles {
  dir: string;
  configPath: string;
}

/** Every temp dir writeConfig made; removed when the test process exits (each test file is its own
 * process), so no test has to remember to, and a failed test leaves nothing behind either. */
const madeDirs: string[] = [];
process.once('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes a deployment config and a provider catalog into a fresh temp dir. */
export function writeConfig(config: Record<string, unknown>, providers: Record<string, unknown>): GatewayFiles {
  const dir = mkdtempSync(join(tmpdir(), 'gw-test-'));
  madeDirs.push(dir);
  const configPath = join(dir, 'gateway.yaml');
  writeFileSync(configPath, stringify({ providers_file: 'providers.yaml', ...config }));
  writeFileSync(join(dir, 'providers.yaml'), stringify({ providers }));
  registerConfigSecrets(config);
  registerConfigSecrets(providers);
  return { dir, configPath };
}

/** A config routing pool `default` (and lanes per protocol) to a mock provider at `mockUrl`. */
export function mockConfig(mockUrl: string, over: Record<string, unknown> = {}): { config: Record<string, unknown>; providers: Record<string, unknown> } {
  const providers: Record<string, unknown> = {
    'mock-openai': { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'none' } },
    'mock-responses': { protocol: 'responses', base_url: `${mockUrl}/v1`, auth: { mode: 'none' } },
    'mock-anthropic': { protocol: 'anthropic', base_url: mockUrl, auth: { mode: 'none' }, headers: { 'anthropic-version': '2023-06-01' } },
    'mock-gemini': { protocol: 'gemini', base_url: `${mockUrl}/v1beta`, auth: { mode: 'none' } },
    'mock-bedrock': { protocol: 'bedrock', base_url: mockUrl, auth: { mode: 'none' } },
    'mock-ollama': { protocol: 'ollama', base_url: mockUrl, auth: { mode: 'none' } },
  };
  const models: Record<string, unknown> = {};
  const pools: Record<string, unknown> = {};
  for (const protocol of ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama']) {
    models[`lane-${protocol}`] = { provider: `mock-${protocol}`, upstream_model: `up-${protocol}` };
    pools[`pool-${protocol}`] = { members: [{ model: `lane-${protocol}`, weight: 1 }] };
  }
  pools.default = { members: [{ model: 'lane-openai', weight: 1 }] };
  return {
    config: {
      auth: { chain: [], admin_auth: [], upstream_credentials: 'own' },
      models,
      pools,
      store: { module: 'memory' },
      config: { locked: true },
      ...over,
    },
    providers,
  };
}

export interface RunningGateway {
  url: string;
  adminUrl: string;
  proc: ChildProcess;
  /** Everything the process wrote to stderr (its JSON logs) so far. */
  logs(): string;
  /** Resolves when a log line containing `text` appears. */
  waitForLog(text: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Fresh ports are picked by binding port 0 and closing it, so two test files running at once
 * can pick the same one; a gateway that finds its port taken is started again on new ports. */
const PORT_RACE_ATTEMPTS = 3;

export async function startGateway(files: GatewayFiles, opts: StartOptions = {}): Promise<RunningGateway> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startGatewayOnce(files, opts);
    } catch (err) {
      const portTaken = err instanceof Error && err.message.includes('EADDRINUSE');
      if (!portTaken || opts.setPorts === false || attempt >= PORT_RACE_ATTEMPTS) throw err;
    }
  }
}

interface StartOptions {
  workers?: number;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  setPorts?: boolean;
  https?: boolean;
  overlay?: { file: string; config: (doc: Record<string, unknown>) => Record<string, unknown> };
}

async function startGatewayOnce(
  files: GatewayFiles,
  /** `https`: the config has a `tls` block, so `url` is https:// (the default stays http://). */
  /** `overlay`: an overlay file of API-applied changes, made from the final config (ports set). */
  opts: StartOptions,
): Promise<RunningGateway> {
  const port = await freePort();
  // Port 0 may hand out the same port twice in a row once the first is closed (the gateway
  // then refuses to start: admin_listen must differ from listen).
  let adminPort = await freePort();
  while (adminPort === port) adminPort = await freePort();
  // Ports and worker count are set by rewriting the config the test wrote.
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('yaml');
  const doc = parse(readFileSync(files.configPath, 'utf8')) as Record<string, unknown>;
  if (opts.setPorts !== false) {
    doc.listen = `127.0.0.1:${port}`;
    doc.admin_listen = `127.0.0.1:${adminPort}`;
  }
  doc.advanced = { ...(doc.advanced as object | undefined), worker_threads: opts.workers ?? 1 };
  writeFileSync(files.configPath, stringify(doc));
  if (opts.overlay !== undefined) writeFileSync(join(files.dir, opts.overlay.file), JSON.stringify({ config: opts.overlay.config(doc) }));

  // The config as the gateway will read it (a test may have rewritten the file), and the env.
  registerConfigSecrets(doc, { ...process.env, ...opts.env });
  registerEnvSecrets(opts.env);
  const proc = spawn(process.execPath, [CLI, '--config', files.configPath, ...(opts.args ?? [])], {
    env: { ...process.env, GATEWAY_LOG_LEVEL: 'info', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const w of [...watchers]) w();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  // Every line the gateway writes is scanned for every secret of the run when the file's tests end.
  watchText(`gateway log (${files.configPath})`, () => output);
  watchLogFiles(files.dir);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const waitForLog = (text: string, timeoutMs = 15_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (output.includes(text)) {
          watchers.delete(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`timed out waiting for "${text}"; output so far:\n${output}`));
      }, timeoutMs);
      watchers.add(check);
      check();
    });

  const gateway: RunningGateway = {
    url: `${opts.https === true ? 'https' : 'http'}://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}/api/v1/admin`,
    proc,
    logs: () => output,
    waitForLog,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
  try {
    await Promise.race([
      // Generous: a gateway booting on a machine shared by many test runs took over 15 s.
      waitForLog('gateway listening', 30_000),
      exited.then((code) => {
        throw new Error(`gateway exited with ${code} before listening:\n${output}`);
      }),
    ]);
  } catch (err) {
    // A gateway that never said it listens is stopped here: left running, its pipes would keep
    // the test file alive with nothing to end it.
    if (proc.exitCode === null) proc.kill('SIGKILL');
    throw err;
  }
  return gateway;
}

/** Log files the gateway writes in its config dir (request-log file sinks): scanned at the end. */
function watchLogFiles(dir: string): void {
  watchText(`log files in ${dir}`, () => {
    let text = '';
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(log|jsonl|ndjson)$/.test(e.name)) text += readFileSync(p, 'utf8');
      }
    };
    try {
      walk(dir);
    } catch {
      // removed already
    }
    return text;
  });
}

/** Runs the CLI to completion (for --validate and boot failures). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
