// Ingress authentication: the data-plane chain, the admin-plane chain and their secrets.
import { Type } from '@sinclair/typebox';
import { DURATION_PATTERN } from '../duration.js';
import { SecretRefField } from './secret-ref.js';

export const AuthSection = Type.Object(
  {
    chain: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description:
        'Ordered data-plane auth chain: `keys` (virtual keys) and/or identity-provider names. `[]` is an open front door (loud open-relay warning at boot).',
    }),
    admin_auth: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Ordered admin-plane auth chain: `admin-tokens` and/or identity-provider names. `[]` is the open, anonymous, full-authority dev posture.',
    }),
    admin_token: Type.Optional(
      SecretRefField('The operator token of the `admin-tokens` module (secret reference). Required when `admin_auth` names `admin-tokens`.'),
    ),
    signing_key: Type.Optional(
      SecretRefField(
        'Ed25519 key that signs virtual keys (secret reference). Must be the identical secret on every node. Required when `chain` names `keys`; token exchange derives its keys under it too.',
      ),
    ),
    key_ttl: Type.String({
      pattern: DURATION_PATTERN,
      'x-expected': 'a duration such as "90d", "12h", "30m"',
      default: '90d',
      description: 'Validity of minted virtual keys (admin-set only; never per developer).',
    }),
    upstream_credentials: Type.Union([Type.Literal('own'), Type.Literal('passthrough')], {
      default: 'own',
      description: '`own`: the gateway signs upstream requests with the provider credentials; `passthrough`: the caller credential is forwarded upstream.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Ingress authentication of the data and admin planes.' },
);
