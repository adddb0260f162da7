// 7. A pool of three members where one fails half its requests (the mock's fail_ratio, set by
// that provider's x-mock-fail-ratio header): what routing costs when it has work to do. Run it
// beside scenario 1 (openai-nonstream) for the comparison; the note gives the share of
// requests that failed over (from the gateway's GET /stats).
import { request } from 'undici';
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';

interface PoolStats {
  name: string;
  members: Array<{ dispositions: Record<string, number> }>;
  unrouted: Record<string, number>;
  failovers: Record<string, number>;
}

async function failoverShare(gatewayUrl: string): Promise<string | null> {
  const res = await request(`${gatewayUrl}/stats`);
  if (res.statusCode !== 200) {
    await res.body.dump();
    return null;
  }
  const stats = (await res.body.json()) as { pools: PoolStats[] };
  const pool = stats.pools.find((p) => p.name === 'default');
  if (pool === undefined) return null;
  const sum = (d: Record<string, number>): number => Object.values(d).reduce((a, b) => a + b, 0);
  const finished = pool.members.reduce((n, m) => n + sum(m.dispositions), sum(pool.unrouted));
  const failovers = sum(pool.failovers);
  const share = finished === 0 ? 0 : (100 * failovers) / finished;
  return `${failovers} failovers over ${finished} requests (${share.toFixed(1)}% failed over; warmup included)`;
}

export const scenario: Scenario = {
  name: 'pool-one-flaky',
  title: 'OpenAI chat, non-stream, a pool of 3 where one member fails half its requests',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig(files) {
    const providers = files.providers.providers as Record<string, Record<string, unknown>>;
    const mock = providers.mock!;
    providers.flaky = { ...mock, headers: { 'x-mock-fail-ratio': '0.5' } };
    files.gateway.models = {
      ...(files.gateway.models as Record<string, unknown>),
      m2: { provider: 'mock', upstream_model: 'mock-gpt' },
      m3: { provider: 'flaky', upstream_model: 'mock-gpt' },
    };
    files.gateway.pools = { default: { members: [{ model: 'm' }, { model: 'm2' }, { model: 'm3' }] } };
  },
  gatewayNote: failoverShare,
  order: 15,
};
