// Starts the example hooks of examples/hooks/ (the hook kit, written against docs/hooks.md
// only) as real processes, and reads what they logged.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EXAMPLES = join(process.cwd(), 'examples', 'hooks');

export interface HookProcess {
  proc: ChildProcess;
  /** Socket path or URL. */
  target: string;
  log: string;
  /** The messages the hook received, in order. */
  received(): any[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function start(script: string, args: string[], log: string): Promise<HookProcess> {
  const proc = spawn(process.execPath, [join(EXAMPLES, script), ...args, '--log', log], { stdio: ['ignore', 'pipe', 'inherit'] });
  const target = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.includes('listening'));
      if (line !== undefined) {
        const parsed = JSON.parse(line) as { socket?: string; url?: string };
        resolve(parsed.socket ?? parsed.url!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    proc,
    target,
    log,
    received() {
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill(signal);
      await exited;
    },
  };
}

export function startSocketGate(dir: string, name: string): Promise<HookProcess> {
  return start('socket-gate.mjs', ['--socket', join(dir, `${name}.sock`)], join(dir, `${name}.jsonl`));
}

function startWebhookTap(dir: string, name: string, extra: string[] = []): Promise<HookProcess> {
  return start('webhook-tap.mjs', ['--port', '0', ...extra], join(dir, `${name}.jsonl`));
}

/** Polls `check` until it holds or `timeoutMs` passes. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/**
 * A temp folder for hook processes' sockets and logs: starts the example hooks in it, and on
 * close stops every one it started and removes the folder.
 */
export class HookDir {
  readonly dir: string;
  private readonly started: HookProcess[] = [];

  constructor(prefix: string) {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
  }

  async socketGate(name: string): Promise<HookProcess> {
    return this.track(await startSocketGate(this.dir, name));
  }

  async webhookTap(name: string, extra: string[] = []): Promise<HookProcess> {
    return this.track(await startWebhookTap(this.dir, name, extra));
  }

  async close(): Promise<void> {
    for (const hook of this.started) await hook.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private track(hook: HookProcess): HookProcess {
    this.started.push(hook);
    return hook;
  }
}
