// The durable store: keys, groups, revocations, usage buckets, durable audit.
import { Type } from '@sinclair/typebox';

export const StoreSection = Type.Object(
  {
    module: Type.Union([Type.Literal('memory'), Type.Literal('sqlite'), Type.Literal('postgres'), Type.Literal('valkey')], {
      default: 'memory',
      description: '`memory` is ephemeral per instance; `sqlite` is the embedded durable store; `postgres` and `valkey` are shared by several nodes.',
    }),
    settings: Type.Record(Type.String(), Type.Unknown(), {
      default: {},
      description: 'Module settings, e.g. sqlite `path` (relative to the config folder), postgres `url`, valkey `url`. Values may be secret references.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Where durable state lives.' },
);
