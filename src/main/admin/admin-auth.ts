// GET /admin-auth and PUT /admin-auth: the admin plane's own auth chain. A PUT makes a new
// config version (live at once) and is written to the overlay, so it survives a restart.
import { Type, type Static } from '@sinclair/typebox';
import type { AdminContext } from './context.js';
import { AdminError, type AdminRoute } from './route.js';
import { refuseWhenLocked } from './locked.js';

const AdminAuthView = Type.Object(
  {
    configured: Type.Boolean({ description: 'false = empty chain = the open, anonymous, full-authority dev posture.' }),
    modules: Type.Array(Type.String(), { description: 'The live admin_auth chain in order.' }),
  },
  { title: 'AdminAuthView' },
);

const AdminAuthPutView = Type.Object(
  {
    configured: Type.Boolean(),
    modules: Type.Array(Type.String()),
    applied: Type.Boolean(),
    config_version: Type.Integer({ minimum: 0 }),
    note: Type.String(),
  },
  { title: 'AdminAuthPutView' },
);

const AdminAuthPutBody = Type.Object(
  { modules: Type.Array(Type.String({ minLength: 1 }), { description: '`admin-tokens` and/or identity-provider names, in order; [] opens the admin plane.' }) },
  { additionalProperties: false, title: 'AdminAuthPutBody' },
);

function adminAuthView(ctx: AdminContext): Static<typeof AdminAuthView> {
  const modules = [...(ctx.config.loaded.config?.auth.admin_auth ?? [])];
  return { configured: modules.length > 0, modules };
}

export const adminAuthRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/admin-auth',
    operationId: 'getAdminAuth',
    summary: 'The admin-plane auth chain',
    tag: 'admin-auth',
    responses: { 200: AdminAuthView },
    handler: (_call, ctx) => ({ status: 200, body: adminAuthView(ctx) }),
  },
  {
    method: 'PUT',
    path: '/admin-auth',
    operationId: 'putAdminAuth',
    summary: 'Replace the admin-plane auth chain (a new config version; persisted in the overlay)',
    tag: 'admin-auth',
    body: AdminAuthPutBody,
    responses: { 200: AdminAuthPutView },
    audit: { action: 'admin_auth.update', resource: () => 'admin-auth' },
    async handler(call, ctx) {
      refuseWhenLocked(ctx);
      const { modules } = call.body as Static<typeof AdminAuthPutBody>;
      const outcome = await ctx.config.setAdminAuth(ctx.workers, modules, call.principal.id);
      if (!outcome.applied) throw new AdminError(400, 'invalid_request', outcome.errors.join('; '));
      const view = adminAuthView(ctx);
      const note = `live now and written to the overlay ${ctx.config.loaded.overlayPath}: survives a restart${view.configured ? '' : '; the admin plane is now OPEN (anonymous, full authority)'}`;
      return { status: 200, body: { ...view, applied: true, config_version: outcome.version, note } };
    },
  },
];
