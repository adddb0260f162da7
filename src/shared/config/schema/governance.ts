// Governance: groups, limits and prices. Owned by the governance work; loose until it lands.
import { Type } from '@sinclair/typebox';

export const GovernanceSection = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Meter and enforce group limits; usage reads are empty when false.' })),
    default_group: Type.Optional(Type.String({ minLength: 1, description: 'Group a minted key joins when the mint names none.' })),
    currency: Type.Optional(Type.String({ minLength: 1, description: 'Denomination of every spend figure.' })),
    flush_interval_secs: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'How often usage counters are flushed to the store, in seconds (default 5). A crash loses at most one interval.' })),
  },
  {
    additionalProperties: true,
    description: 'Governance: groups (limits requests/tokens/budget/concurrent, per_request_fee, rate_card, child_default), metering and prices. Further settings are defined by the governance module.',
  },
);
