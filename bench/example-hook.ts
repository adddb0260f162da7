// The example socket hook of examples/hooks/ (socket-gate.mjs, which also answers taps) as a
// process of the bench: started when a scenario writes its gateway config, killed when the
// bench exits. Returns the socket path for the hook's `socket:`. It runs on the gateway's cores
// (`taskset`, when the bench pins): a hook is a sidecar of the gateway, and left to the OS it
// lands beside the mock and wrk, where every gate round trip pays two cross-core wake-ups
// (about 130 µs on the bench VM, against about 20 µs on one core).
import { spawn } from 'node:child_process';
import { pinnedCommand } from './child-processes.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function startExampleSocketHook(name: string, cores: readonly number[] | null = null): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const socket = join(dir, 'hook.sock');
  const [command, args] = pinnedCommand(cores, process.execPath, [join(process.cwd(), 'examples', 'hooks', 'socket-gate.mjs'), '--socket', socket]);
  const child = spawn(command, args, { stdio: 'ignore' });
  child.unref();
  process.once('exit', () => {
    // SIGKILL: a hook stuck in a slow tap's sleep would not get to its SIGTERM handler.
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return socket;
}
