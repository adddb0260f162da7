// Conversation state of the Responses API kept by the gateway (previous_response_id on any
// lane; GET and DELETE /v1/responses/{id}), in the configured store.
import { Type } from '@sinclair/typebox';
import { DURATION_PATTERN } from '../duration.js';

const MiB = 1024 * 1024;

export const ResponsesStoreSection = Type.Object(
  {
    ttl: Type.String({
      pattern: DURATION_PATTERN,
      default: '30d',
      description: 'How long a stored response can be read or continued (OpenAI keeps them 30 days).',
    }),
    max_bytes: Type.Integer({
      minimum: 0,
      default: 256 * MiB,
      description: 'Total size of the stored responses; past it the oldest are dropped. A response larger than this is not stored. 0 stores nothing.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'The Responses API state the gateway keeps in the store.' },
);
