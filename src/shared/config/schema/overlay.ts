// The overlay file: changes applied through the admin API, persisted next to the config.
import { Type, type Static } from '@sinclair/typebox';
import { TlsSettings } from './tls.js';

const OverlaySettingsGroups = Type.Object(
  {
    tls: Type.Optional(Type.Partial(TlsSettings, { description: 'TLS material set by PUT /config/settings; applies at the next start.' })),
  },
  { additionalProperties: false, default: {}, description: 'Setting groups stored by PUT /config/settings; merged over the file at boot.' },
);

export const OverlayFile = Type.Object(
  {
    config: Type.Optional(Type.Unknown({ description: 'The full deployment config last applied through the API; replaces the file config at boot.' })),
    settings: OverlaySettingsGroups,
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
