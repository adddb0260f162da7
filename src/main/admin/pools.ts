// GET /pools (PoolView page) and GET /pools/{name} (PoolDetailView: live, from shared memory,
// through each member's (pool, lane) breaker cell and the lane-global counters).
import { Type } from '@sinclair/typebox';
import { INT32_COUNT_MAX } from '../../shared/sab/layout.js';
import { cellStatus } from '../../shared/routing/lane-view.js';
import type { AdminContext } from './context.js';
import { AdminError, type AdminRoute } from './route.js';
import { PageOf, PageQuery, pageBySortKey } from './paging.js';

const PoolMemberView = Type.Object({ model: Type.String(), weight: Type.Integer({ minimum: 0 }) });
const PoolView = Type.Object({ name: Type.String(), members: Type.Array(PoolMemberView) });

const PoolMemberStatusView = Type.Object({
  model: Type.String(),
  weight: Type.Integer({ minimum: 0 }),
  usable: Type.Boolean({ description: 'false while a tripped breaker cools down or the lane is dead' }),
  cooldown_remaining_seconds: Type.Integer({ minimum: 0 }),
  available_concurrency: Type.Integer({ minimum: 0, description: `free slots on the lane (lane-global); ${INT32_COUNT_MAX} for an unbounded lane` }),
  inflight: Type.Integer(),
  latency_ms: Type.Union([Type.Number(), Type.Null()], { description: 'latency EWMA (time to the response head); null before the first sample' }),
  ok: Type.Integer({ minimum: 0 }),
  err: Type.Integer({ minimum: 0 }),
  dead: Type.Boolean(),
  trip_count: Type.Integer({ minimum: 0 }),
  last_trip_at: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
const PoolDetailView = Type.Object({ name: Type.String(), members: Type.Array(PoolMemberStatusView) });

/** Sorted by `keyOf` (the lists' stable order: by name). */
export function byName<T>(items: T[], keyOf: (item: T) => string): T[] {
  return items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

function poolViews(ctx: AdminContext): Array<{ name: string; members: Array<{ model: string; weight: number }> }> {
  const c = ctx.config.compiled;
  return c.pools.map((pool) => ({ name: pool.name, members: pool.members.map((m) => ({ model: c.lanes[m.lane]!.name, weight: m.weight })) }));
}

export const poolRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/pools',
    operationId: 'listPools',
    summary: 'The pools and their members (paged, by name)',
    tag: 'pools',
    query: PageQuery,
    responses: { 200: PageOf(PoolView, 'PoolPage') },
    handler: (call, ctx) => ({
      status: 200,
      body: pageBySortKey(
        byName(poolViews(ctx), (p) => p.name),
        (p) => p.name,
        call.query,
      ),
    }),
  },
  {
    method: 'GET',
    path: '/pools/{name}',
    operationId: 'getPool',
    summary: 'A pool with the live status of each member',
    tag: 'pools',
    responses: { 200: PoolDetailView },
    handler(call, ctx) {
      const c = ctx.config.compiled;
      const pool = c.pools.find((p) => p.name === call.params.name);
      if (pool === undefined) throw new AdminError(404, 'not_found', `no pool named "${call.params.name}"`);
      const nowMs = ctx.routing.nowMs();
      const members = pool.members.map((m) => {
        const status = cellStatus(ctx.routing.shared, c.lanes[m.lane]!, m.cellSlot, m.weight, nowMs);
        return { ...status, available_concurrency: status.available_concurrency ?? INT32_COUNT_MAX };
      });
      return { status: 200, body: { name: pool.name, members } };
    },
  },
];
