// GET /info: the binary, its build, uptime, topology and config_version.
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';

function infoView(ctx: AdminContext): unknown {
  const c = ctx.config.compiled;
  return {
    version: ctx.version,
    build: { auth_modules: ['keys'], hook_plugins: [], weighted_floor: true },
    uptime_seconds: Math.floor(Date.now() / 1000) - ctx.startedAtSecs,
    started_at: ctx.startedAtSecs,
    topology: { pools: c.pools.length, models: c.lanes.length, providers: c.providers.length },
    config_persistence: false,
    config_version: ctx.config.version,
    safe_mode: ctx.config.safeMode,
    workers: ctx.workers.liveCount(),
  };
}

export const infoRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/info',
    operationId: 'getInfo',
    summary: 'The binary, its build, uptime, topology and config_version',
    tag: 'info',
    responses: { 200: Type.Unknown() },
    handler: (_call, ctx) => ({ status: 200, body: infoView(ctx) }),
  },
];
