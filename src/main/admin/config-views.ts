// The views of the live config that GET /config and the version reads return: AuthView,
// PoolView, ModelView, ProviderView, HookView. Built from the compiled snapshot and the
// validated document; no credential, token or hook secret is ever part of one.
import { Type, type Static } from '@sinclair/typebox';
import type { ConfigState } from '../config-state.js';
import { hookViewsOf, type HookView as HookViewData } from '../config/hook-views.js';

const Uint = (description?: string) => Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });

export const AuthView = Type.Object(
  {
    chain: Type.Array(Type.String(), { description: 'Ordered module names; empty = open front door.' }),
    upstream_credentials: Type.Union([Type.Literal('own'), Type.Literal('passthrough')]),
    open: Type.Boolean({ description: 'True when the empty chain admits every request.' }),
  },
  { title: 'AuthView' },
);

const PoolMemberView = Type.Object({ model: Type.String(), weight: Uint() }, { title: 'PoolMemberView' });
const PoolView = Type.Object({ name: Type.String(), members: Type.Array(PoolMemberView) }, { title: 'PoolView' });
const ModelView = Type.Object({ model: Type.String(), provider: Type.String() }, { title: 'ModelView' });
const ProviderView = Type.Object({ provider: Type.String(), model_count: Uint() }, { title: 'ProviderView' });

export const HookTransportView = Type.Object(
  { kind: Type.Union([Type.Literal('socket'), Type.Literal('webhook'), Type.Literal('none')]), target: Type.Union([Type.String(), Type.Null()]) },
  { title: 'HookTransportView' },
);
export const HookView = Type.Object(
  {
    name: Type.String(),
    kind: Type.String({ description: '`tap` or `gate`.' }),
    transport: HookTransportView,
    prompt: Type.String(),
    user: Type.String(),
    priority: Uint(),
    at: Type.Union([Type.String(), Type.Null()]),
    on_error: Type.String(),
    timeout_ms: Uint(),
    settings: Type.Record(Type.String(), Type.Unknown()),
    global: Type.Boolean(),
  },
  { title: 'HookView' },
);

export const EffectiveConfigView = Type.Object(
  {
    version: Uint('The config_version of the live config.'),
    auth: AuthView,
    pools: Type.Array(PoolView),
    models: Type.Array(ModelView),
    providers: Type.Array(ProviderView),
    hooks: Type.Array(HookView),
    global_hooks: Type.Array(Type.String()),
  },
  { title: 'EffectiveConfigView' },
);

export function authView(state: ConfigState): Static<typeof AuthView> {
  const { chain, upstreamCredentials } = state.compiled.auth;
  return { chain: [...chain], upstream_credentials: upstreamCredentials, open: chain.length === 0 };
}

export function effectiveConfigView(state: ConfigState): Static<typeof EffectiveConfigView> {
  const c = state.compiled;
  const laneNames = c.lanes.map((l) => l.name);
  const providerNames = c.providers.map((p) => p.name);
  const document = state.currentDocument();
  const hooks = Object.values(hookViewsOf(document)).sort((a, b) => (a.name < b.name ? -1 : 1));
  return {
    version: state.version,
    auth: authView(state),
    pools: c.pools.map((p) => ({ name: p.name, members: p.members.map((m) => ({ model: laneNames[m.lane]!, weight: m.weight })) })),
    models: c.lanes.map((l) => ({ model: l.name, provider: providerNames[l.provider] ?? '' })),
    providers: providerNames.map((name, index) => ({ provider: name, model_count: c.lanes.filter((l) => l.provider === index).length })),
    hooks: hooks satisfies HookViewData[],
    global_hooks: Array.isArray(document.global_hooks) ? (document.global_hooks as string[]) : [],
  };
}
