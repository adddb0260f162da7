// Which cores each process gets. The proxy under test (gateway, baseline or nginx) takes the
// first cores, one per worker; the mock takes the next; wrk takes whatever is left, or shares
// the mock's core when nothing is. The layout is printed with every result, since numbers from
// different layouts are not comparable.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface PinningLayout {
  pinned: boolean;
  /** Cores of the gateway, baseline and nginx (null: unpinned). */
  proxy: number[] | null;
  mock: number[] | null;
  load: number[] | null;
  /** wrk threads: one per load core. */
  loadThreads: number;
  /** True when the load generator or mock runs on a core the proxy also uses. */
  sharesCores: boolean;
  /** One line for the report. */
  description: string;
}

export interface PinningRequest {
  /** The cores this process may use, in order (from Cpus_allowed_list). */
  cores: readonly number[];
  /** Gateway workers (and nginx workers, baseline threads). */
  workers: number;
  pin: boolean;
}

export function planPinning(req: PinningRequest): PinningLayout {
  const { cores, workers } = req;
  if (!req.pin || cores.length < 2) {
    const why = req.pin ? 'only one core available, so nothing is pinned' : 'pinning off';
    return {
      pinned: false,
      proxy: null,
      mock: null,
      load: null,
      loadThreads: 1,
      sharesCores: true,
      description: `unpinned (${why}): the OS schedules the proxy (${workers} worker${workers === 1 ? '' : 's'}), the mock and wrk (1 thread) on ${cores.length} core${cores.length === 1 ? '' : 's'}`,
    };
  }
  if (cores.length >= workers + 1) {
    const proxy = cores.slice(0, workers);
    const mock = cores.slice(workers, workers + 1);
    const rest = cores.slice(workers + 1);
    const load = rest.length > 0 ? rest : mock;
    return {
      pinned: true,
      proxy,
      mock,
      load,
      loadThreads: load.length,
      sharesCores: false,
      description:
        `gateway/baseline/nginx (${workers} worker${workers === 1 ? '' : 's'}) on ${coreList(proxy)}; ` +
        (rest.length > 0
          ? `mock on ${coreList(mock)}; wrk (${load.length} thread${load.length === 1 ? '' : 's'}) on ${coreList(load)}`
          : `mock + wrk (1 thread) on ${coreList(mock)}`),
    };
  }
  // More workers than spare cores: the proxy spreads over every core and the load side
  // shares the last one with it.
  const last = cores.slice(-1);
  return {
    pinned: true,
    proxy: [...cores],
    mock: last,
    load: last,
    loadThreads: 1,
    sharesCores: true,
    description:
      `gateway/baseline/nginx (${workers} workers) on ${coreList(cores)}; mock + wrk (1 thread) on ${coreList(last)}, ` +
      `SHARED with the proxy, so the load generator competes with it for CPU`,
  };
}

function coreList(cores: readonly number[]): string {
  return `${cores.length === 1 ? 'core' : 'cores'} ${cores.join(',')}`;
}

/** Parses a kernel CPU list such as `0-3,6,8-9`. */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.trim().split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || !Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) throw new Error(`bad CPU list: ${list}`);
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

/** The cores this process may run on (its affinity), falling back to 0..n-1. */
export function allowedCores(): number[] {
  try {
    const m = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m !== null) return parseCpuList(m[1]!);
  } catch {
    // not Linux; fall through
  }
  return Array.from({ length: availableParallelism() }, (_, i) => i);
}
