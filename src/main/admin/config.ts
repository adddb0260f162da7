// Config operations: apply a whole config (live, not written to disk) and reload from disk.
import { Type } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import { AdminError, type AdminRoute } from './route.js';

function refuseWhenLocked(ctx: AdminContext): void {
  if (ctx.config.locked()) throw new AdminError(403, 'forbidden', 'the config is locked (config.locked: true): edit the file and POST /config/reload');
}

export const configRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'POST',
    path: '/config/apply',
    operationId: 'applyConfig',
    summary: 'Apply a full deployment config on every worker (live, not written to disk)',
    tag: 'config',
    responses: { 200: Type.Unknown() },
    async handler(call, ctx) {
      refuseWhenLocked(ctx);
      const document = (call.body as { config?: unknown } | undefined)?.config;
      if (document === undefined || document === null || typeof document !== 'object') {
        throw new AdminError(400, 'invalid_request', 'the body must be {"config": <full deployment config>}');
      }
      const outcome = await ctx.config.applyDocument(ctx.workers, document);
      if (!outcome.applied) throw new AdminError(400, 'invalid_request', outcome.errors.join('; '));
      return { status: 200, body: { applied: true, config_version: outcome.version, note: 'live on every worker; not written to disk' } };
    },
  },
  {
    method: 'POST',
    path: '/config/reload',
    operationId: 'reloadConfig',
    summary: 'Reload the config files from disk',
    tag: 'config',
    responses: { 200: Type.Unknown() },
    async handler(_call, ctx) {
      const outcome = await ctx.config.reload(ctx.workers);
      if (!outcome.applied) throw new AdminError(400, 'invalid_request', outcome.errors.join('; '));
      return { status: 200, body: { reloaded: true, config_version: outcome.version } };
    },
  },
];
