// SSRF guard: which cloud-metadata hosts a provider base_url may never point at.
import { Type } from '@sinclair/typebox';

export const SecuritySection = Type.Object(
  {
    blocked_metadata_hosts: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Hosts added to the built-in cloud-metadata denylist.',
    }),
    allow_metadata_hosts: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Denylisted hosts that every provider may use anyway.',
    }),
    allow_all_metadata: Type.Boolean({
      default: false,
      description: 'Turn the metadata-host check off entirely (not recommended).',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Security settings.' },
);
