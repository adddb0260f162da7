// How many data-plane worker threads to run: advanced.worker_threads, else the deprecated
// GATEWAY_WORKER_THREADS or TOKIO_WORKER_THREADS (with a warning), else one per core.
import { availableParallelism } from 'node:os';

const DEPRECATED = ['GATEWAY_WORKER_THREADS', 'TOKIO_WORKER_THREADS'] as const;

export function resolveWorkerThreads(
  config: { advanced?: { worker_threads?: number } } | undefined,
  env: NodeJS.ProcessEnv,
): { count: number; warning?: string } {
  const present = DEPRECATED.filter((name) => env[name] !== undefined && env[name] !== '');
  const configured = config?.advanced?.worker_threads;
  const deprecation = (names: readonly string[]) =>
    `${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} deprecated and will be removed in the next release; set advanced.worker_threads in the config instead`;

  if (configured !== undefined) {
    return present.length === 0 ? { count: configured } : { count: configured, warning: `${deprecation(present)} (ignored: the config sets advanced.worker_threads)` };
  }
  const cores = Math.max(1, availableParallelism());
  for (const name of present) {
    const text = env[name] as string;
    const count = Number(text);
    if (/^[0-9]+$/.test(text.trim()) && count >= 1 && count <= 1024) {
      const ignored = present.filter((other) => other !== name);
      const note = ignored.length > 0 ? ` (${name} wins over ${ignored.join(', ')})` : '';
      return { count, warning: `${deprecation(present)}${note}` };
    }
  }
  if (present.length === 0) return { count: cores };
  return { count: cores, warning: `${deprecation(present)}; value is not an integer in 1..1024, using ${cores} (one per core)` };
}
