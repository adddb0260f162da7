// The private folder holding the workers' plain-HTTP unix sockets while the TLS front serves
// the data port. The folder is 0700 (mkdtemp's mode, set again explicitly) so no other local
// user can connect to the plaintext listeners and get past TLS or mTLS. Nothing secret is
// written here: the TLS material stays in memory. The folder is removed at shutdown, and on
// any process exit as a fallback (a SIGKILL leaves an empty-of-secrets folder behind).
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { rmSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** sun_path is 108 bytes on Linux, including the final NUL. */
const UNIX_PATH_MAX_BYTES = 107;

export class IngressSockets {
  private removed = false;
  private readonly onExit = (): void => this.remove();

  private constructor(readonly dir: string) {
    process.once('exit', this.onExit);
  }

  /** Makes the folder; throws with a clear message when the socket paths would be too long. */
  static async create(maxWorkers: number): Promise<IngressSockets> {
    const dir = await mkdtemp(join(tmpdir(), 'llm-gateway-ingress-'));
    const sockets = new IngressSockets(dir);
    await chmod(dir, 0o700);
    const longest = sockets.pathOf(Math.max(0, maxWorkers - 1));
    if (Buffer.byteLength(longest) > UNIX_PATH_MAX_BYTES) {
      sockets.remove();
      throw new Error(`the temp folder path is too long for unix sockets (${longest}); set TMPDIR to a shorter folder`);
    }
    return sockets;
  }

  /** The unix socket worker `workerId` listens on. */
  pathOf(workerId: number): string {
    return join(this.dir, `worker-${workerId}.sock`);
  }

  /** Removes the folder and its sockets; safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    process.off('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
