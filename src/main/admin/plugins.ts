// GET /plugins?type=auth|hooks: the compiled-in auth modules and the configured external
// hooks, as a page of PluginView.
import { Type, type Static } from '@sinclair/typebox';
import { hookViewsOf } from '../config/hook-views.js';
import type { AdminContext } from './context.js';
import { pageBySortKey, PageOf, PageQueryFields } from './paging.js';
import type { AdminRoute } from './route.js';

/** Auth modules built into this binary: the data plane's `keys`, the admin plane's `admin-tokens`. */
export const COMPILED_IN_AUTH_MODULES: readonly string[] = ['keys', 'admin-tokens'];

const PluginView = Type.Object(
  {
    name: Type.String(),
    type: Type.Union([Type.Literal('auth'), Type.Literal('hooks')]),
    loader: Type.Union([Type.Literal('compiled-in'), Type.Literal('external')]),
    active: Type.Union([Type.Boolean(), Type.Null()], { description: 'Auth modules: in a chain now; external hooks: configured.' }),
    target: Type.Union([Type.String(), Type.Null()], { description: 'Transport target of an external plugin; null for compiled-in.' }),
  },
  { title: 'PluginView' },
);
type PluginView = Static<typeof PluginView>;

const PluginsQuery = Type.Object({ type: Type.Optional(Type.Union([Type.Literal('auth'), Type.Literal('hooks')])), ...PageQueryFields });

function plugins(ctx: AdminContext): PluginView[] {
  const auth = ctx.config.loaded.config?.auth;
  const inChain = new Set([...(auth?.chain ?? []), ...(auth?.admin_auth ?? [])]);
  const out: PluginView[] = COMPILED_IN_AUTH_MODULES.map((name) => ({ name, type: 'auth', loader: 'compiled-in', active: inChain.has(name), target: null }));
  for (const hook of Object.values(hookViewsOf(ctx.config.currentDocument()))) {
    out.push({ name: hook.name, type: 'hooks', loader: 'external', active: true, target: hook.transport.target });
  }
  return out;
}

export const pluginRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/plugins',
    operationId: 'listPlugins',
    summary: 'Auth modules and hook plugins, optionally of one type',
    tag: 'plugins',
    query: PluginsQuery,
    responses: { 200: PageOf(PluginView, 'PluginPage') },
    handler(call, ctx) {
      const type = call.query.get('type');
      const items = plugins(ctx)
        .filter((p) => type === null || p.type === type)
        .sort((a, b) => (`${a.type}/${a.name}` < `${b.type}/${b.name}` ? -1 : 1));
      return { status: 200, body: pageBySortKey(items, (p) => `${p.type}/${p.name}`, call.query) };
    },
  },
];
