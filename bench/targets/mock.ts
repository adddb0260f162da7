// The mock provider (src/mock, standalone entry dist/src/mock/main.js) in its own process on
// the mock core(s). Hit directly it gives the ceiling: what wrk and the mock manage together
// with no proxy in between. It runs with its defaults (no delays, 5 chunks), and scenarios set
// the stream length per request with `[mock chunks=N]` in the prompt.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR } from '../paths.js';
import { freePort } from './free-port.js';
import { waitUntilAnswering } from './readiness.js';
import { TargetUnavailable, type RunningTarget, type TargetContext } from './target.js';

const MOCK_MAIN = join(DIST_DIR, 'src/mock/main.js');

export async function startMock(ctx: TargetContext): Promise<RunningTarget> {
  if (!existsSync(MOCK_MAIN)) {
    throw new TargetUnavailable(`mock provider not built: ${MOCK_MAIN} is missing (run make build)`, false);
  }
  const port = await freePort();
  const child = ctx.children.spawn('mock provider', process.execPath, [MOCK_MAIN, '--port', String(port)], {
    cpus: ctx.layout.mock,
    logFile: join(ctx.tempDir, 'mock.log'),
  });
  const url = `http://127.0.0.1:${port}`;
  // Any answer will do (a 404 on `/` included): it means the listener is up.
  await waitUntilAnswering(child, { url: `${url}/`, timeoutMs: 15_000 });
  return {
    kind: 'mock',
    label: 'mock (direct)',
    url,
    pid: child.pid,
    cpus: ctx.layout.mock,
    alive: () => !child.hasExited(),
    logTail: () => child.logTail(),
    stop: () => child.stop(),
  };
}
