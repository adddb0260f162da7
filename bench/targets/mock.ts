// The mock provider, in its own process on the mock core(s). Hit directly it gives the
// ceiling: what wrk and the mock manage together with no proxy in between.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_DIR } from '../paths.js';
import { freePort } from './free-port.js';
import { waitUntilAnswering } from './readiness.js';
import { TargetUnavailable, type RunningTarget, type TargetContext } from './target.js';

export function mockCliModulePath(): string {
  return process.env.BENCH_MOCK_CLI ?? join(DIST_DIR, 'src/mock/cli.js');
}

const MOCK_MAIN = fileURLToPath(new URL('./mock-main.js', import.meta.url));

export async function startMock(ctx: TargetContext): Promise<RunningTarget> {
  const modulePath = mockCliModulePath();
  if (!existsSync(modulePath)) {
    throw new TargetUnavailable(`mock provider not built: ${modulePath} is missing (run make build)`, false);
  }
  const port = await freePort();
  const child = ctx.children.spawn('mock provider', process.execPath, [MOCK_MAIN, '--listen', `127.0.0.1:${port}`], {
    cpus: ctx.layout.mock,
    logFile: join(ctx.tempDir, 'mock.log'),
  });
  const url = `http://127.0.0.1:${port}`;
  // Any answer will do (a 404 on `/` included): it means the listener is up.
  await waitUntilAnswering(child, { url: `${url}/`, timeoutMs: 15_000 });
  return {
    kind: 'mock',
    label: 'mock (direct: the ceiling)',
    url,
    pid: child.pid,
    cpus: ctx.layout.mock,
    logTail: () => child.logTail(),
    stop: () => child.stop(),
  };
}
