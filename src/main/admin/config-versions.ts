// Retained config versions: the list (newest first, paged), one version's hooks, and the diff
// of two versions (computed in piscina).
import { Type } from '@sinclair/typebox';
import { globalHooksOf, hookViewsOf } from '../config/hook-views.js';
import type { ConfigVersionRecord } from '../config/versions.js';
import type { AdminContext } from './context.js';
import { HookView } from './config-views.js';
import { pageBefore, PageOf, PageQueryFields } from './paging.js';
import { AdminError, type AdminRoute } from './route.js';

const Uint = Type.Integer({ minimum: 0 });
const ConfigVersionFields = { version: Uint, ts: Uint, principal: Type.String(), summary: Type.String() };
const ConfigVersion = Type.Object(ConfigVersionFields, { title: 'ConfigVersion' });
const ConfigVersionDetailView = Type.Object(
  { ...ConfigVersionFields, hooks: Type.Record(Type.String(), HookView), global_hooks: Type.Array(Type.String()) },
  { title: 'ConfigVersionDetailView' },
);
const NameLists = Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()), changed: Type.Array(Type.String()) });
const ConfigDiffView = Type.Object(
  {
    from: Uint,
    to: Uint,
    hooks: NameLists,
    global_hooks: Type.Optional(Type.Union([Type.Object({ from: Type.Array(Type.String()), to: Type.Array(Type.String()) }), Type.Null()])),
  },
  { title: 'ConfigDiffView' },
);
const DiffQuery = Type.Object({ from: Uint, to: Uint });

function retained(ctx: AdminContext, version: number): ConfigVersionRecord {
  const record = ctx.config.versions.get(version);
  if (record === undefined) throw new AdminError(404, 'not_found', `config version ${version} is not retained`);
  return record;
}

/** At most `limit` retained versions below `before`, newest first, and whether more are retained below them. */
function retainedBelow(ctx: AdminContext, limit: number, before: number | undefined): { items: ConfigVersionRecord[]; more: boolean } {
  const rest = ctx.config.versions.newestFirst().filter((r) => before === undefined || r.version < before);
  return { items: rest.slice(0, limit), more: rest.length > limit };
}

function summaryOf(r: ConfigVersionRecord) {
  return { version: r.version, ts: r.ts, principal: r.principal, summary: r.summary };
}

export const configVersionRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/config/versions',
    operationId: 'listConfigVersions',
    summary: 'Retained config versions (the last 100 of this process), newest first',
    tag: 'config',
    query: Type.Object(PageQueryFields),
    responses: { 200: PageOf(ConfigVersion, 'ConfigVersionPage') },
    handler(call, ctx) {
      const page = pageBefore(call.query, 'version', (limit, before) => retainedBelow(ctx, limit, before));
      return { status: 200, body: { items: page.items.map(summaryOf), next_cursor: page.next_cursor } };
    },
  },
  {
    method: 'GET',
    path: '/config/versions/{v}',
    operationId: 'getConfigVersion',
    summary: 'One retained version: who made it and its hooks',
    tag: 'config',
    params: Type.Object({ v: Uint }),
    responses: { 200: ConfigVersionDetailView },
    handler(call, ctx) {
      const record = retained(ctx, Number(call.params.v));
      return { status: 200, body: { ...summaryOf(record), hooks: hookViewsOf(record.document), global_hooks: globalHooksOf(record.document) } };
    },
  },
  {
    method: 'GET',
    path: '/config/diff',
    operationId: 'diffConfigVersions',
    summary: 'What changed in hooks and global hook wiring between two retained versions',
    tag: 'config',
    query: DiffQuery,
    responses: { 200: ConfigDiffView },
    async handler(call, ctx) {
      const from = retained(ctx, Number(call.query.get('from')));
      const to = retained(ctx, Number(call.query.get('to')));
      const diff = await ctx.config.diff(from, to);
      return { status: 200, body: { from: from.version, to: to.version, ...diff } };
    },
  },
];
