// How many data-plane worker threads to run (the spec's table: "default one per available core;
// advanced.worker_threads overrides (fallback env TOKIO_WORKER_THREADS)"): advanced.worker_threads,
// else the deprecated GATEWAY_WORKER_THREADS (with a deprecation warning; it stands for the config
// setting, so it wins over the fallback), else TOKIO_WORKER_THREADS (the documented fallback: no
// warning), else one per core.
import { availableParallelism } from 'node:os';

const DEPRECATED = 'GATEWAY_WORKER_THREADS';
const FALLBACK = 'TOKIO_WORKER_THREADS';

function threadCount(text: string): number | null {
  const count = Number(text);
  return /^[0-9]+$/.test(text.trim()) && count >= 1 && count <= 1024 ? count : null;
}

export function resolveWorkerThreads(
  config: { advanced?: { worker_threads?: number } } | undefined,
  env: NodeJS.ProcessEnv,
): { count: number; warning?: string } {
  const deprecated = env[DEPRECATED] !== undefined && env[DEPRECATED] !== '' ? env[DEPRECATED] : undefined;
  const fallback = env[FALLBACK] !== undefined && env[FALLBACK] !== '' ? env[FALLBACK] : undefined;
  const deprecation = `${DEPRECATED} is deprecated and will be removed in the next release; set advanced.worker_threads in the config instead`;
  const configured = config?.advanced?.worker_threads;
  if (configured !== undefined) {
    return deprecated === undefined
      ? { count: configured }
      : { count: configured, warning: `${deprecation} (ignored: the config sets advanced.worker_threads)` };
  }
  const cores = Math.max(1, availableParallelism());
  const problems: string[] = [];
  if (deprecated !== undefined) {
    const count = threadCount(deprecated);
    if (count !== null) return { count, warning: fallback !== undefined ? `${deprecation} (it wins over ${FALLBACK})` : deprecation };
    problems.push(`${deprecation}; its value is not an integer in 1..1024`);
  }
  if (fallback !== undefined) {
    const count = threadCount(fallback);
    if (count !== null) return problems.length === 0 ? { count } : { count, warning: `${problems.join('; ')}; using ${FALLBACK}=${count}` };
    problems.push(`${FALLBACK} is not an integer in 1..1024`);
  }
  if (problems.length === 0) return { count: cores };
  return { count: cores, warning: `${problems.join('; ')}; using ${cores} (one per core)` };
}
