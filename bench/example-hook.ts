// The example socket hook of examples/hooks/ (socket-gate.mjs, which also answers taps) as a
// process of the bench: started when a scenario writes its gateway config, killed when the
// bench exits. Returns the socket path for the hook's `socket:`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function startExampleSocketHook(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const socket = join(dir, 'hook.sock');
  const child = spawn(process.execPath, [join(process.cwd(), 'examples', 'hooks', 'socket-gate.mjs'), '--socket', socket], { stdio: 'ignore' });
  child.unref();
  process.once('exit', () => {
    // SIGKILL: a hook stuck in a slow tap's sleep would not get to its SIGTERM handler.
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return socket;
}
