// Hooks: external tap/gate plugins over a socket or webhook. Owned by the hooks work; loose here.
import { Type } from '@sinclair/typebox';

/** Words that may never name a hook: they are the terminals of a gate's `on_error`. */
export const RESERVED_HOOK_NAMES: readonly string[] = ['weighted', 'reject', 'first', 'nothing'];

export const HookDefinition = Type.Object(
  {
    kind: Type.Optional(Type.Union([Type.Literal('tap'), Type.Literal('gate')], { description: '`tap` (fire-and-forget) or `gate` (fire-and-wait).' })),
    socket: Type.Optional(Type.String({ minLength: 1, description: 'Unix socket path of the hook.' })),
    webhook: Type.Optional(Type.String({ minLength: 1, description: 'Webhook URL of the hook.' })),
  },
  {
    additionalProperties: true,
    description: 'A hook: kind, exactly one of socket/webhook, prompt, user, priority, at, on_error, timeout_ms, settings, global. Further fields are defined by the hooks module.',
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
