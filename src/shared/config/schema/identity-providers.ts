// Identity providers for token exchange (`/auth/token`) and the auth chains. Loose until that
// work lands, except for the settings the spec requires.
import { Type } from '@sinclair/typebox';
import { SecretRefField } from './secret-ref.js';
import { DURATION_PATTERN } from '../duration.js';

const BrowserLogin = Type.Object(
  {
    client_id: Type.Optional(Type.String({ minLength: 1, description: 'OAuth client id; defaults to the provider `audience`.' })),
    client_secret: SecretRefField('OAuth client secret; a secret reference, never a plaintext literal.'),
    scope: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Scopes the sign-in requests (space-separated); default `openid`. Add the one that puts the role claim in the ID token (e.g. `openid groups`).',
      }),
    ),
  },
  { additionalProperties: true, description: 'Enables the hosted sign-in page (GET /auth/token) for this provider.' },
);

const IdentityProviderSettings = Type.Object(
  {
    issuer: Type.String({ minLength: 1, description: 'Issuer URL; login and JWKS endpoints are discovered from it. `iss` must equal it exactly.' }),
    audience: Type.String({ minLength: 1, description: 'Expected `aud`, exactly.' }),
    role_claim: Type.String({ minLength: 1, default: 'groups', description: 'Token claim mapped to groups (`roles` for app roles).' }),
    jwks_url: Type.Optional(Type.String({ minLength: 1, description: "JWKS endpoint; default: discovered from the issuer's well-known configuration." })),
    ca_cert_pem: Type.Optional(
      Type.String({ minLength: 1, description: 'Extra trusted root CA (PEM) layered on the public roots; never disables validation.' }),
    ),
    clock_skew: Type.Optional(Type.String({ pattern: DURATION_PATTERN, description: 'Clock skew allowed on exp/nbf/iat; default 30s.' })),
  },
  { additionalProperties: true, description: 'Identity-provider settings.' },
);

const IdentityProvider = Type.Object(
  {
    module: Type.String({ minLength: 1, description: 'The identity-provider module; two named providers may share one module.' }),
    settings: IdentityProviderSettings,
    browser_login: Type.Optional(BrowserLogin),
    max_admin_scope: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('read-only'), Type.Literal('full')], {
        description: 'Cap on the admin scope this provider can grant; omitted means `read-only`; `none` keeps it off the admin plane.',
      }),
    ),
  },
  { additionalProperties: true, description: 'An identity provider.' },
);

export const IdentityProvidersSection = Type.Record(Type.String({ minLength: 1 }), IdentityProvider, {
  default: {},
  description: 'Identity providers by name; `auth.chain`, `auth.admin_auth` and `role_bindings` refer to the names.',
});
