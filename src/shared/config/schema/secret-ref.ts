// Secret references: how any secret enters the config without being written in it. Fields that
// hold a secret carry the `x-secret` marker (or are a `SecretRef`, marked `x-secret-ref`); the
// loader finds them by walking the schema, so adding a secret field is a schema change only.
import { Type, type Static } from '@sinclair/typebox';

const ENV_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

const EnvSecretRef = Type.Object(
  {
    env: Type.String({
      pattern: ENV_NAME_PATTERN,
      'x-expected': 'an environment variable name',
      description: 'Name of the environment variable holding the secret.',
    }),
  },
  { additionalProperties: false, description: 'The secret is the value of an environment variable.' },
);

const FileSecretRef = Type.Object(
  {
    file: Type.String({
      minLength: 1,
      description: "Path of a file holding the secret; relative paths resolve against the config file's folder. Trailing whitespace is dropped.",
    }),
  },
  { additionalProperties: false, description: 'The secret is the content of a file.' },
);

const ModuleSecretRef = Type.Object(
  {
    module: Type.String({ minLength: 1, description: 'Name of the secret plugin that serves the secret.' }),
    settings: Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Settings passed to the secret plugin.' }),
  },
  { additionalProperties: false, description: 'The secret is served by a secret plugin (not resolved by --validate).' },
);

/** A field that takes a secret reference only (never a literal). */
export function SecretRefField(description: string) {
  return Type.Union([EnvSecretRef, FileSecretRef, ModuleSecretRef], { 'x-secret-ref': true, description });
}

export const SecretRef = SecretRefField('A secret reference: `{ env: VAR }`, `{ file: /path }` or `{ module: <secret-plugin>, settings: {...} }`.');
export type SecretRef = Static<typeof SecretRef>;

/** A secret given either literally (possibly via `${VAR}`) or as a secret reference. */
export function SecretOrLiteral(description: string) {
  return Type.Union([Type.String({ description: 'The secret itself (prefer `${VAR}` or a secret reference).' }), SecretRefField('A secret reference.')], {
    'x-secret': true,
    description,
  });
}
export type SecretOrLiteral = string | SecretRef;
