// What the routing integration tests share: a mock provider, lanes on it whose provider adds
// a fault by header (so one member fails while its neighbour answers), /stats reads.
import { request } from 'undici';
import type { MockServer } from '../../../src/mock/server.js';
import type { RunningGateway } from '../../helpers/gateway.js';
import { startStack, type Stack, type StackConfig, type StackOptions } from '../../helpers/clients/stack.js';

export interface CellRecord {
  model: string;
  weight: number;
  usable: boolean;
  cooldown_remaining_seconds: number;
  available_concurrency: number | null;
  inflight: number;
  latency_ms: number | null;
  ok: number;
  err: number;
  dead: boolean;
  dead_reason: string | null;
  trip_count: number;
  last_trip_at: number | null;
  availability: string;
  recovery_hint_ms: number | null;
  breaker_state: string;
  at_capacity: boolean;
  streak: number;
  probe_in_flight: boolean;
  dispositions: Record<string, number>;
}

export interface PoolRecord {
  name: string;
  members: CellRecord[];
  unrouted: Record<string, number>;
  failovers: Record<string, number>;
}

export interface Stats {
  lanes: Array<CellRecord & { provider: string; pools: string[]; available: number | 'unbounded'; free_slots: number | null }>;
  pools: PoolRecord[];
  /** Dispositions of requests that ended before any pool or lane was known. */
  untargeted: Record<string, number>;
}

export async function readStats(gw: RunningGateway): Promise<Stats> {
  const res = await request(`${gw.url}/stats`);
  if (res.statusCode !== 200) throw new Error(`/stats answered ${res.statusCode}: ${await res.body.text()}`);
  return (await res.body.json()) as Stats;
}

export function poolOf(stats: Stats, pool: string): PoolRecord {
  const found = stats.pools.find((p) => p.name === pool);
  if (found === undefined) throw new Error(`no pool ${pool} in /stats`);
  return found;
}

export function memberOf(stats: Stats, pool: string, lane: string): CellRecord {
  const found = poolOf(stats, pool).members.find((m) => m.model === lane);
  if (found === undefined) throw new Error(`no member ${lane} in pool ${pool}`);
  return found;
}

/** Sum of a disposition over the pool's members and its unrouted row. */
export function dispositionCount(stats: Stats, pool: string, disposition: string): number {
  const p = poolOf(stats, pool);
  return p.members.reduce((n, m) => n + (m.dispositions[disposition] ?? 0), p.unrouted[disposition] ?? 0);
}

/** An openai-protocol provider on the mock; `mockHeaders` become x-mock-* on every request. */
export function mockProvider(mockUrl: string, mockHeaders: Record<string, string | number> = {}): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(mockHeaders)) headers[`x-mock-${name.replace(/_/g, '-')}`] = String(value); // uWS refuses '_' in header names
  return { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'none' }, headers };
}

/**
 * A config whose models are `m-<x>` (upstream `up-<x>`) on the mock's provider `alpha`, one for
 * each of `lanes`, with `config` (its pools, hooks and the rest) next to them.
 */
export function alphaLanes(mockUrl: string, lanes: readonly string[], config: Record<string, unknown>): StackConfig {
  const models = Object.fromEntries(lanes.map((x) => [`m-${x}`, { provider: 'alpha', upstream_model: `up-${x}` }]));
  return { providers: { alpha: mockProvider(mockUrl) }, config: { models, ...config } };
}

/** m-b weighted 100 to m-a's and m-c's 1: the pick of the weighted router, unless a gate decides. */
export const MOSTLY_B = [
  { model: 'm-a', weight: 1 },
  { model: 'm-b', weight: 100 },
  { model: 'm-c', weight: 1 },
];

/** What startRouting starts: the one stack builder's Stack. */
export type RoutingStack = Stack;

/** A gateway over `config` (auth open, memory store unless given) and `providers`; the mock is made first so they can name it. */
export function startRouting(
  build: NonNullable<StackOptions['build']>,
  opts: { workers?: number; mock?: MockServer; env?: NodeJS.ProcessEnv } = {},
): Promise<RoutingStack> {
  return startStack({
    build,
    workers: opts.workers ?? 1,
    ...(opts.mock === undefined ? {} : { mockServer: opts.mock }),
    ...(opts.env === undefined ? {} : { env: opts.env }),
  });
}

export async function chatRaw(
  gw: RunningGateway,
  model: string,
  prompt = 'hi',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const res = await request(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: prompt }] }),
  });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}
