// The durable store: keys, groups, revocations, usage buckets, durable audit.
import { Type } from '@sinclair/typebox';
import { SecretRefField } from './secret-ref.js';

export const StoreSection = Type.Object(
  {
    module: Type.Union([Type.Literal('memory'), Type.Literal('sqlite'), Type.Literal('postgres'), Type.Literal('valkey')], {
      default: 'memory',
      description: '`memory` is ephemeral per instance; `sqlite` is the embedded durable store; `postgres` and `valkey` are shared by several nodes.',
    }),
    settings: Type.Record(
      Type.String(),
      // A setting whose whole value is a secret reference is resolved like any secret and
      // handed over in the resolved secrets as `store.settings.<name>`.
      Type.Union([SecretRefField('A secret reference, e.g. a connection URL with a password.'), Type.Unknown()]),
      {
        default: {},
        description: 'Module settings, e.g. sqlite `path` (relative to the config folder), postgres `url`, valkey `url`. A value may be a secret reference.',
      },
    ),
  },
  { additionalProperties: false, default: {}, description: 'Where durable state lives.' },
);
