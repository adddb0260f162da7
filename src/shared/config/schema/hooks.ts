// Hooks: external tap/gate plugins over a unix socket or a webhook (docs/hooks.md). The schema
// holds the shape of one definition; the rules across fields and hooks (exactly one transport,
// `at` only for taps, `on_error` a terminal or an existing gate, no fallback loop) are in
// src/main/config/deployment-checks.ts so every write path (file, apply, admin) runs them.
import { Type } from '@sinclair/typebox';
import { SecretOrLiteral } from './secret-ref.js';

/** Words that may never name a hook: they are the terminals of a gate's `on_error`. */
export const RESERVED_HOOK_NAMES: readonly string[] = ['weighted', 'reject', 'first', 'nothing'];

/** Gate deadline bounds: a gate is on the request's critical path. */
const MIN_HOOK_TIMEOUT_MS = 1;
const MAX_HOOK_TIMEOUT_MS = 60_000;

export const HookDefinition = Type.Object(
  {
    kind: Type.Optional(
      Type.Union([Type.Literal('tap'), Type.Literal('gate')], {
        description: '`tap` (fire-and-forget observer) or `gate` (fire-and-wait decider). Default `tap`.',
      }),
    ),
    socket: Type.Optional(Type.String({ minLength: 1, description: 'Unix socket path of the hook (exactly one of socket/webhook).' })),
    webhook: Type.Optional(Type.String({ minLength: 1, description: 'Webhook URL of the hook (exactly one of socket/webhook).' })),
    secret: Type.Optional(SecretOrLiteral('Webhook only: HMAC-SHA256 key that signs each delivery (prefer a secret reference; never returned).')),
    prompt: Type.Optional(
      Type.Union([Type.Literal('no'), Type.Literal('ro'), Type.Literal('rw')], {
        description: 'Prompt access: `no` (default), `ro` (sees it), `rw` (may rewrite it).',
      }),
    ),
    user: Type.Optional(
      Type.Union([Type.Literal('no'), Type.Literal('ro')], { description: 'Caller identity access: `no` (default) or `ro` (sees the key id).' }),
    ),
    priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'Rewrite order and reject tie-break (lower first). Default 0.' })),
    at: Type.Optional(
      Type.Union([Type.Literal('request'), Type.Literal('route'), Type.Literal('attempt'), Type.Literal('completion')], {
        description: 'Taps only: the stage observed. Default `completion`.',
      }),
    ),
    on_error: Type.Optional(
      Type.String({ minLength: 1, description: 'Gates only: `weighted` (default), `reject`, `first`, `nothing`, or the name of a fallback gate.' }),
    ),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: MIN_HOOK_TIMEOUT_MS, maximum: MAX_HOOK_TIMEOUT_MS, description: 'Gates only: decision deadline in milliseconds. Default 1000.' }),
    ),
    settings: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Opaque settings sent to the hook with `configure`; never a secret.' })),
    global: Type.Optional(Type.Boolean({ description: 'Fire on every request (same as naming it in `global_hooks`).' })),
  },
  {
    additionalProperties: false,
    description: 'A hook: kind, exactly one of socket/webhook, prompt, user, priority, at, on_error, timeout_ms, settings, global.',
  },
);

export const HooksSection = Type.Record(Type.String({ minLength: 1 }), HookDefinition, {
  default: {},
  description: 'Hooks by name. `weighted`, `reject`, `first` and `nothing` are reserved.',
});

export const GlobalHooks = Type.Array(Type.String({ minLength: 1 }), {
  default: [],
  description: 'Hooks that fire on every request.',
});
