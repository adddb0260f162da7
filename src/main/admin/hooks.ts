// Hooks: GET /hooks (page of HookView), /hooks/{name}, /hooks/{name}/health (connect probe),
// /hooks/{name}/status (HookStatusView: drift, or the fail-open view), /hooks/{name}/schema;
// and the writes of API-DECISIONS.md: POST /hooks, DELETE /hooks/{name}, PATCH
// /hooks/{name}/settings. Each write is a new config version through the whole config
// validation (so every rule of docs/hooks.md holds on this path too), and the registry change
// alone is persisted in the overlay (config/hook-overlay.ts): never the rest of the live config,
// never a literal secret (a webhook `secret` must be a reference here).
import { Type, type Static } from '@sinclair/typebox';
import { hookViewsOf, type HookView as HookViewData } from '../config/hook-views.js';
import { settingsVersionOf } from '../config/compile-hooks.js';
import { HookDefinition } from '../../shared/config/schema/hooks.js';
import type { OverlayHooks } from '../../shared/config/schema/overlay.js';
import { dropHookReferences, recordDeleted, recordRegistered, recordSettings } from '../config/hook-overlay.js';
import { HookMetricView } from '../hooks/hook-metrics.js';
import { AUDIT_NAME_SCHEMA_OPTIONS } from '../audit/audit-text.js';
import type { AdminContext } from './context.js';
import { HookTransportView, HookView } from './config-views.js';
import { refuseWhenLocked } from './locked.js';
import { PageOf, PageQuery, pageBySortKey } from './paging.js';
import { AdminError, type AdminRoute } from './route.js';

/** The hook transports this binary can attach (BuildInfo.hook_plugins). */
export const HOOK_TRANSPORTS: readonly string[] = ['socket', 'webhook'];

const Uint = Type.Integer({ minimum: 0 });
const HookHealthView = Type.Object(
  { name: Type.String(), transport: HookTransportView, reachable: Type.Union([Type.Boolean(), Type.Null()]), detail: Type.Union([Type.String(), Type.Null()]) },
  { title: 'HookHealthView' },
);
const SettingsState = Type.Object({ settings: Type.Record(Type.String(), Type.Unknown()), settings_version: Uint });
const HookStatusView = Type.Object(
  {
    name: Type.String(),
    desired: SettingsState,
    reported: Type.Union([
      Type.Object({ settings: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]), settings_version: Type.Union([Uint, Type.Null()]) }),
      Type.Null(),
    ]),
    drift: Type.Union([Type.Boolean(), Type.Null()]),
    metrics: Type.Array(HookMetricView),
    as_of: Uint,
    source: Type.Literal('live'),
    note: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'HookStatusView' },
);
const HookSchemaView = Type.Object(
  { name: Type.String(), schema: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]) },
  { title: 'HookSchemaView' },
);

const RegisterBody = Type.Composite([Type.Object({ name: Type.String(AUDIT_NAME_SCHEMA_OPTIONS) }), HookDefinition], {
  additionalProperties: false,
  title: 'HookRegistration',
});
const SettingsBody = Type.Object({ settings: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false });

function views(ctx: AdminContext): Record<string, HookViewData> {
  return hookViewsOf(ctx.config.currentDocument());
}

function viewOf(ctx: AdminContext, name: string): HookViewData {
  // Own properties only: a path name such as `valueOf` must not find Object.prototype's.
  const all = views(ctx);
  if (!Object.hasOwn(all, name)) throw new AdminError(404, 'not_found', `no hook named "${name}"`);
  return all[name]!;
}

function hooksOf(document: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const hooks = (document.hooks ??= {}) as Record<string, Record<string, unknown>>;
  return hooks;
}

async function mutate(
  ctx: AdminContext,
  principal: string,
  summary: string,
  change: (document: Record<string, unknown>) => void,
  persist: (hooks: OverlayHooks) => void,
): Promise<void> {
  refuseWhenLocked(ctx);
  const outcome = await ctx.config.mutateHooks(ctx.workers, change, persist, principal, summary);
  if (!outcome.applied) throw new AdminError(400, 'invalid_request', `invalid hook (${outcome.errors.length} error(s)): ${outcome.errors.join('; ')}`);
}

/**
 * A registration is persisted in the overlay file (mutable config), so a literal webhook secret
 * would be written to disk in plaintext: only a secret reference is taken here.
 */
function refuseLiteralSecret(definition: Record<string, unknown>): void {
  if (typeof definition.secret === 'string') {
    throw new AdminError(
      400,
      'invalid_request',
      'secret: give a secret reference ({ "env": "VAR" } or { "file": "/path" }); a literal secret would be written to the overlay file in plaintext',
    );
  }
}

export const hookRoutes: AdminRoute<AdminContext>[] = [
  {
    method: 'GET',
    path: '/hooks',
    operationId: 'listHooks',
    summary: 'The hook definitions (paged, by name)',
    tag: 'hooks',
    query: PageQuery,
    responses: { 200: PageOf(HookView, 'HookPage') },
    handler(call, ctx) {
      const items = Object.values(views(ctx)).sort((a, b) => (a.name < b.name ? -1 : 1));
      return { status: 200, body: pageBySortKey(items, (h) => h.name, call.query) };
    },
  },
  {
    method: 'GET',
    path: '/hooks/{name}',
    operationId: 'getHook',
    summary: 'One hook definition',
    tag: 'hooks',
    responses: { 200: HookView },
    handler: (call, ctx) => ({ status: 200, body: viewOf(ctx, call.params.name!) }),
  },
  {
    method: 'GET',
    path: '/hooks/{name}/health',
    operationId: 'getHookHealth',
    summary: 'A short-timeout connect probe of a socket hook (null for a webhook); never fires the hook',
    tag: 'hooks',
    responses: { 200: HookHealthView },
    async handler(call, ctx) {
      const view = viewOf(ctx, call.params.name!);
      const health = ctx.hooks.safeMode
        ? { reachable: null, detail: 'safe mode: external hooks are not attached' }
        : await ctx.hooks.health(view.transport.kind, view.transport.target);
      return { status: 200, body: { name: view.name, transport: view.transport, ...health } };
    },
  },
  {
    method: 'GET',
    path: '/hooks/{name}/status',
    operationId: 'getHookStatus',
    summary: 'What the hook reports it runs, against the desired settings (fail-open view when it does not answer)',
    tag: 'hooks',
    responses: { 200: HookStatusView },
    async handler(call, ctx) {
      const view = viewOf(ctx, call.params.name!);
      const desired = {
        settings: view.settings,
        settings_version: ctx.hooks.compiledHook(view.name)?.settingsVersion ?? settingsVersionOf(view.name, view.settings),
      };
      const status = await ctx.hooks.status(view.name, desired);
      return { status: 200, body: { name: view.name, ...status } };
    },
  },
  {
    method: 'GET',
    path: '/hooks/{name}/schema',
    operationId: 'getHookSchema',
    summary: "The hook's settings JSON Schema, from describe (null when it does not answer)",
    tag: 'hooks',
    responses: { 200: HookSchemaView },
    async handler(call, ctx) {
      const view = viewOf(ctx, call.params.name!);
      return { status: 200, body: { name: view.name, schema: await ctx.hooks.schema(view.name) } };
    },
  },
  {
    method: 'POST',
    path: '/hooks',
    operationId: 'registerHook',
    summary: 'Register a hook (a new config version; the registration is persisted in the overlay; a webhook secret must be a secret reference)',
    tag: 'hooks',
    body: RegisterBody,
    responses: { 201: HookView },
    audit: { action: 'hook.register', resource: (call) => `hook:${String((call.body as { name?: unknown })?.name ?? '')}` },
    async handler(call, ctx) {
      const { name, ...definition } = call.body as Static<typeof RegisterBody>;
      // As a key of the config's `hooks` mapping it would set the mapping's prototype instead.
      if (name === '__proto__') throw new AdminError(400, 'invalid_request', '"__proto__" is a reserved word and cannot name a hook');
      refuseLiteralSecret(definition);
      await mutate(
        ctx,
        call.principal.id,
        `hook.register ${name}`,
        (document) => {
          const hooks = hooksOf(document);
          if (Object.hasOwn(hooks, name)) throw new AdminError(409, 'conflict', `a hook named "${name}" already exists`);
          hooks[name] = definition;
        },
        (overlay) => recordRegistered(overlay, name, structuredClone(definition)),
      );
      return { status: 201, body: viewOf(ctx, name) };
    },
  },
  {
    method: 'DELETE',
    path: '/hooks/{name}',
    operationId: 'deleteHook',
    summary: 'Delete a hook (also from global_hooks and the pools that name it); refused while another hook falls back to it',
    tag: 'hooks',
    responses: { 200: HookView },
    audit: { action: 'hook.delete', resource: (call) => `hook:${call.params.name}` },
    async handler(call, ctx) {
      const name = call.params.name!;
      const view = viewOf(ctx, name);
      const dependant = Object.values(views(ctx)).find((h) => h.kind === 'gate' && h.on_error === name);
      if (dependant !== undefined) throw new AdminError(409, 'conflict', `hook "${dependant.name}" names "${name}" as its on_error fallback`);
      await mutate(
        ctx,
        call.principal.id,
        `hook.delete ${name}`,
        (document) => {
          delete hooksOf(document)[name];
          dropHookReferences(document, name);
        },
        (overlay) => recordDeleted(overlay, name),
      );
      return { status: 200, body: view };
    },
  },
  {
    method: 'PATCH',
    path: '/hooks/{name}/settings',
    operationId: 'configureHook',
    summary: 'Replace the desired settings: bumps settings_version and sends configure to the hook',
    tag: 'hooks',
    body: SettingsBody,
    responses: { 200: HookView },
    audit: { action: 'hook.configure', resource: (call) => `hook:${call.params.name}` },
    async handler(call, ctx) {
      const name = call.params.name!;
      viewOf(ctx, name);
      const { settings } = call.body as Static<typeof SettingsBody>;
      await mutate(
        ctx,
        call.principal.id,
        `hook.configure ${name}`,
        (document) => {
          hooksOf(document)[name]!.settings = settings;
        },
        (overlay) => recordSettings(overlay, name, settings),
      );
      await ctx.hooks.configure(name);
      return { status: 200, body: viewOf(ctx, name) };
    },
  },
];
