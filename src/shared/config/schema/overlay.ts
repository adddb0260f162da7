// The overlay file: changes applied through the admin API, persisted next to the config.
import { Type, type Static } from '@sinclair/typebox';
import { HookDefinition } from './hooks.js';
import { TlsSettings } from './tls.js';

const OverlaySettingsGroups = Type.Object(
  {
    tls: Type.Optional(Type.Partial(TlsSettings, { description: 'TLS material set by PUT /config/settings; applies at the next start.' })),
  },
  { additionalProperties: false, default: {}, description: 'Setting groups stored by PUT /config/settings; merged over the file at boot.' },
);

/**
 * The hook registry's changes made through the admin API, and nothing else: applied over the
 * file's `hooks:` at boot and reload, so the rest of the file stays in effect. Never a literal
 * secret: POST /hooks takes a webhook `secret` as a reference only.
 */
export const OverlayHooks = Type.Object(
  {
    registered: Type.Record(Type.String({ minLength: 1 }), HookDefinition, {
      default: {},
      description: 'Hooks registered by POST /hooks, as sent (they win over a file hook of the same name).',
    }),
    deleted: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'File hooks deleted by DELETE /hooks/{name} (also taken out of global_hooks and every pool).',
    }),
    settings: Type.Record(Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Unknown()), {
      default: {},
      description: 'Settings of file hooks replaced by PATCH /hooks/{name}/settings.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Hook registry changes made through the admin API.' },
);
export type OverlayHooks = Static<typeof OverlayHooks>;

export const OverlayFile = Type.Object(
  {
    config: Type.Optional(Type.Unknown({ description: 'The full deployment config last applied through the API; replaces the file config at boot.' })),
    settings: OverlaySettingsGroups,
    hooks: Type.Optional(OverlayHooks),
    admin_auth: Type.Optional(
      Type.Object(
        { modules: Type.Array(Type.String({ minLength: 1 }), { description: 'The admin_auth chain set by PUT /admin-auth.' }) },
        { additionalProperties: false, description: 'The admin-plane auth chain set by PUT /admin-auth; replaces auth.admin_auth at boot.' },
      ),
    ),
  },
  { additionalProperties: true, description: 'The overlay file (JSON). Other top-level fields (e.g. retained versions) belong to the admin plane.' },
);
export type OverlayFile = Static<typeof OverlayFile>;
