// The provider catalog: where each provider lives, its wire protocol, and how the gateway
// authenticates to it. Each auth mode is its own object so a misspelt field is caught.
import { Type, type Static } from '@sinclair/typebox';
import { SecretOrLiteral, SecretRefField } from './secret-ref.js';

const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";

const Protocol = Type.Union(
  [Type.Literal('openai'), Type.Literal('responses'), Type.Literal('anthropic'), Type.Literal('gemini'), Type.Literal('bedrock'), Type.Literal('ollama')],
  { description: 'Wire protocol the provider speaks.' },
);

const mode = <M extends string>(name: M) => Type.Literal(name, { description: 'Auth mode.' });
const strict = (description: string) => ({ additionalProperties: false, description });

const NoneAuth = Type.Object({ mode: mode('none') }, strict('No upstream credential.'));

const BearerAuth = Type.Object({ mode: mode('bearer'), key: SecretOrLiteral('API key sent as `Authorization: Bearer <key>`.') }, strict('Bearer token.'));

const HeaderAuth = Type.Object(
  {
    mode: mode('header'),
    header: Type.String({ pattern: HEADER_NAME, 'x-expected': 'an HTTP header name', description: 'Header carrying the key, e.g. `x-api-key`.' }),
    key: SecretOrLiteral('API key sent in `header`.'),
  },
  strict('API key in a named header.'),
);

const SigV4Auth = Type.Object(
  {
    mode: mode('sigv4'),
    region: Type.Optional(Type.String({ minLength: 1, description: 'AWS region; default: taken from a `*.<region>.amazonaws.com` base_url.' })),
    service: Type.String({ minLength: 1, default: 'bedrock', description: 'SigV4 signing service name.' }),
    access_key_id: SecretOrLiteral('AWS access key id.'),
    secret_access_key: SecretOrLiteral('AWS secret access key.'),
    session_token: Type.Optional(SecretOrLiteral('AWS session token of temporary credentials.')),
  },
  strict('AWS Signature Version 4.'),
);

const JwtBearerAuth = Type.Object(
  {
    mode: mode('jwt-bearer'),
    token_url: Type.Optional(Type.String({ minLength: 1, description: "OAuth token endpoint; default: the service account's `token_uri`." })),
    scope: Type.String({ minLength: 1, description: 'OAuth scope requested, e.g. `https://www.googleapis.com/auth/cloud-platform`.' }),
    audience: Type.Optional(Type.String({ minLength: 1, description: 'Assertion audience; default: the token URL.' })),
    service_account: Type.Optional(SecretRefField('Service-account JSON (with client_email, private_key, token_uri) as a secret reference.')),
    client_email: Type.Optional(Type.String({ minLength: 1, description: 'Issuer of the assertion, when no service_account is given.' })),
    private_key: Type.Optional(SecretOrLiteral('PEM private key signing the assertion (RS256), when no service_account is given.')),
  },
  strict('OAuth 2.0 JWT-bearer grant (RFC 7523), e.g. a Google service account for Vertex AI. Give `service_account`, or `client_email` and `private_key`.'),
);

const OAuthClientCredentialsAuth = Type.Object(
  {
    mode: mode('oauth-client-credentials'),
    token_url: Type.String({ minLength: 1, description: 'OAuth token endpoint.' }),
    client_id: SecretOrLiteral('OAuth client id.'),
    client_secret: SecretOrLiteral('OAuth client secret.'),
    scope: Type.Optional(Type.String({ minLength: 1, description: 'OAuth scope requested, e.g. `https://cognitiveservices.azure.com/.default`.' })),
  },
  strict('OAuth 2.0 client-credentials grant, e.g. Azure Entra ID.'),
);

export const ProviderAuth = Type.Union([NoneAuth, BearerAuth, HeaderAuth, SigV4Auth, JwtBearerAuth, OAuthClientCredentialsAuth], {
  default: { mode: 'none' },
  description: 'How the gateway authenticates to the provider.',
});
export type ProviderAuth = Static<typeof ProviderAuth>;

export const Provider = Type.Object(
  {
    protocol: Protocol,
    base_url: Type.String({ minLength: 1, description: 'http(s) URL of the API root, e.g. `https://api.openai.com/v1`.' }),
    auth: ProviderAuth,
    headers: Type.Record(Type.String({ pattern: HEADER_NAME }), Type.String(), {
      default: {},
      description: 'Static headers sent on every upstream request (e.g. `anthropic-version`).',
    }),
    allow_metadata_hosts: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Cloud-metadata hosts this provider may use despite the denylist.',
    }),
  },
  { additionalProperties: false, description: 'An upstream provider.' },
);
export type Provider = Static<typeof Provider>;

export const ProviderCatalog = Type.Object(
  {
    providers: Type.Record(Type.String({ minLength: 1 }), Provider, { description: 'Providers by name.' }),
  },
  { additionalProperties: false, description: 'The provider catalog (providers.yaml).' },
);
export type ProviderCatalog = Static<typeof ProviderCatalog>;
