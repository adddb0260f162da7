// The baseline: bench/baselines/passthrough.ts in its own process on the proxy core(s), one
// uWS thread per gateway worker so a multi-worker row compares like with like.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GC_TRACE_FLAG } from '../driver/gc-trace.js';
import { freePort } from './free-port.js';
import { waitUntilAnswering } from './readiness.js';
import { upstreamOf, type RunningTarget, type TargetContext } from './target.js';

const PASSTHROUGH_MAIN = fileURLToPath(new URL('../baselines/passthrough.js', import.meta.url));
/** Extra node flags for the baseline (a profile of it beside the gateway's, say). */
const BASELINE_NODE_ARGS = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');

export async function startBaseline(ctx: TargetContext): Promise<RunningTarget> {
  const port = await freePort();
  const args = [
    ...BASELINE_NODE_ARGS,
    ...(ctx.gcTrace === true ? [GC_TRACE_FLAG] : []),
    PASSTHROUGH_MAIN,
    '--listen',
    `127.0.0.1:${port}`,
    '--upstream',
    upstreamOf(ctx),
    '--threads',
    String(ctx.workers),
  ];
  const logFile = join(ctx.tempDir, 'baseline.log');
  const child = ctx.children.spawn('baseline pass-through', process.execPath, args, { cpus: ctx.layout.proxy, logFile });
  const url = `http://127.0.0.1:${port}`;
  // GET / travels to the mock and back (a 404 there is fine): both ends are up.
  await waitUntilAnswering(child, { url: `${url}/`, timeoutMs: 15_000 });
  return {
    kind: 'baseline',
    label: `baseline uWS+undici (${ctx.workers} thread${ctx.workers === 1 ? '' : 's'})`,
    url,
    pid: child.pid,
    cpus: ctx.layout.proxy,
    ...(ctx.gcTrace === true ? { gcLog: logFile } : {}),
    alive: () => !child.hasExited(),
    logTail: () => child.logTail(),
    stop: () => child.stop(),
  };
}
