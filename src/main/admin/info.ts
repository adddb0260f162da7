// GET /info: the binary, its build, uptime, topology, config_version and whether API changes
// survive a restart.
import { HOOK_TRANSPORTS } from './hooks.js';
import { Type, type Static } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import type { AdminRoute } from './route.js';
import { COMPILED_IN_AUTH_MODULES } from './plugins.js';

const Uint = Type.Integer({ minimum: 0 });

const InfoView = Type.Object(
  {
    version: Type.String({ description: 'Semantic version of the binary.' }),
    build: Type.Object(
      {
        auth_modules: Type.Array(Type.String(), { description: 'Auth modules compiled in.' }),
        hook_plugins: Type.Array(Type.String()),
        weighted_floor: Type.Boolean({ description: 'Always true.' }),
      },
      { title: 'BuildInfo' },
    ),
    uptime_seconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    started_at: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Boot epoch; a changed value means counters reset.' }),
    topology: Type.Object({ pools: Uint, models: Uint, providers: Uint }, { title: 'TopologyInfo' }),
    config_persistence: Type.Boolean({
      description: 'True when admin-API changes of the overlay kind survive a restart (PUT /config/settings, PUT /admin-auth).',
    }),
    config_version: Type.Integer({ minimum: 0, description: '0 at boot, +1 per API config apply; process-local.' }),
    safe_mode: Type.Boolean({ description: 'Booted with --safe-mode (the overlay is ignored).' }),
    workers: Type.Integer({ minimum: 0, description: 'Worker threads listening now.' }),
    audit_durable: Type.Union([Type.Literal('writer'), Type.Literal('standby'), Type.Literal('none')], {
      description:
        "`writer`: this node writes the store's durable audit log; `standby`: another node does (this one keeps its ring and takes over when that writer's lease lapses); `none`: no durable log (memory store, or the lease could not be taken).",
    }),
  },
  { title: 'InfoView' },
);

function infoView(ctx: AdminContext): Static<typeof InfoView> {
  const c = ctx.config.compiled;
  return {
    version: ctx.version,
    build: { auth_modules: [...COMPILED_IN_AUTH_MODULES], hook_plugins: [...HOOK_TRANSPORTS], weighted_floor: true },
    uptime_seconds: Math.max(0, Math.floor(Date.now() / 1000) - ctx.startedAtSecs),
    started_at: ctx.startedAtSecs,
    topology: { pools: c.pools.length, models: c.lanes.length, providers: c.providers.length },
    config_persistence: ctx.config.persistence(),
    config_version: ctx.config.version,
    safe_mode: ctx.config.safeMode,
    workers: ctx.workers.liveCount(),
    audit_durable: ctx.audit.durableState(),
  };
}

export const infoRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/info',
    operationId: 'getInfo',
    summary: 'The binary, its build, uptime, topology and config_version',
    tag: 'info',
    responses: { 200: InfoView },
    handler: (_call, ctx) => ({ status: 200, body: infoView(ctx) }),
  },
];
