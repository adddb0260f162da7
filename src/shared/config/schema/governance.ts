// Governance: metering, enforcement of group and key limits, and the global price table that
// usage reads are priced with. Groups and keys themselves live in the store (admin API).
import { Type } from '@sinclair/typebox';

const PriceEntry = Type.Object(
  {
    model: Type.String({ minLength: 1, description: 'A model lane (config key under `models:`), or `*` for every lane.' }),
    tier: Type.String({ minLength: 1, default: '*', description: 'Service tier; every request is billed at tier `default`; `*` matches any.' }),
    input_micros_per_mtok: Type.Integer({ minimum: 0, default: 0, description: 'Micro-units of the currency per million uncached input tokens.' }),
    output_micros_per_mtok: Type.Integer({ minimum: 0, default: 0, description: 'Per million output tokens.' }),
    cache_read_micros_per_mtok: Type.Integer({ minimum: 0, default: 0, description: 'Per million cache-read tokens.' }),
    cache_creation_micros_per_mtok: Type.Integer({ minimum: 0, default: 0, description: 'Per million cache-creation tokens.' }),
  },
  { additionalProperties: false },
);

export const GovernanceSection = Type.Object(
  {
    enabled: Type.Boolean({
      default: true,
      description: 'Enforce group and key limits and meter usage per key; when false keys still authenticate, and usage reads are empty.',
    }),
    default_group: Type.Optional(
      Type.String({ minLength: 1, description: 'Group a minted key joins when the mint names none (it must exist when a key is minted).' }),
    ),
    currency: Type.String({ minLength: 1, default: 'USD', description: 'Denomination of every spend figure.' }),
    flush_interval_secs: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description: 'How often usage and governance counters are flushed to the store, in seconds (default 5). A crash loses at most one interval.',
      }),
    ),
    prices: Type.Array(PriceEntry, {
      default: [],
      description: 'The global price table: `spend_micros` of GET /usage is computed from it at read time, so a change re-prices stored tokens.',
    }),
    key_cache_entries: Type.Integer({
      minimum: 1,
      default: 10_000,
      description: 'Verified virtual keys each worker caches (signature checked once); POST /auth/cache/flush empties the caches.',
    }),
  },
  {
    additionalProperties: false,
    default: {},
    description: 'Governance: limits live on groups and keys (admin API, durable store); metering per (UTC day, key, model, provider); the global price table.',
  },
);
