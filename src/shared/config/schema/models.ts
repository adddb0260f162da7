// Model lanes: a config key, the provider that serves it and the provider's model name.
import { Type } from '@sinclair/typebox';

const ModelLane = Type.Object(
  {
    provider: Type.String({ minLength: 1, description: 'Name of a provider in the provider catalog.' }),
    upstream_model: Type.Optional(Type.String({ minLength: 1, description: "The model name the provider knows; defaults to this lane's key." })),
    max_concurrent: Type.Integer({
      minimum: 0,
      default: 0,
      description: 'Concurrency limit of the lane, shared across every pool that uses it; 0 = unbounded.',
    }),
    max_requests: Type.Integer({
      minimum: 0,
      default: 0,
      description: 'Lifetime request budget of the lane (per process); 0 = none.',
    }),
    max_output_tokens: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'The most output tokens this lane answers a request that sets no cap of its own with (the vendor default, or what the gateway writes when translating). Governance reserves it at admission for such requests against tokens and budget limits.',
      }),
    ),
  },
  { additionalProperties: false, description: 'A model lane.' },
);

export const ModelsSection = Type.Record(Type.String({ minLength: 1 }), ModelLane, {
  default: {},
  description: 'Model lanes by name. The name is what clients send as `model` on direct routes.',
});
