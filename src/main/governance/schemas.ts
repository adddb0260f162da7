// TypeBox schemas of the governance admin resources (spec and API-DECISIONS): the bodies the
// routes accept and the views they answer. The OpenAPI document is generated from them.
import { AUDIT_NAME_SCHEMA_OPTIONS } from '../audit/audit-text.js';
import { Type } from '@sinclair/typebox';
import { DURATION_PATTERN } from '../../shared/config/duration.js';
import { PageOf } from '../admin/paging.js';

const Nullable = <T extends ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const BudgetPeriod = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('total')]);
const Uint32 = Type.Integer({ minimum: 0, maximum: 4294967295 });
const Int64 = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** A count or epoch in a view (uint64 in the spec; JSON numbers stay exact to 2^53). */
const Uint64 = Type.Integer({ minimum: 0 });

export const MintKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    group: Type.Optional(Type.String({ minLength: 1 })),
    allowed_pools: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    max_budget_cents: Type.Optional(Nullable(Int64)),
    budget_period: Type.Optional(BudgetPeriod),
    rpm_limit: Type.Optional(Nullable(Uint32)),
    tpm_limit: Type.Optional(Nullable(Uint32)),
    ttl: Type.Optional(Type.String({ pattern: DURATION_PATTERN })),
    issue_aws_credential: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const PatchKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    group: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    allowed_pools: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    max_budget_cents: Type.Optional(Nullable(Int64)),
    budget_period: Type.Optional(BudgetPeriod),
    rpm_limit: Type.Optional(Nullable(Uint32)),
    tpm_limit: Type.Optional(Nullable(Uint32)),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// The views are exactly the spec's (KeyView, CreatedKeyView, RotatedKeyView, KeyMeteringView):
// every field required unless the spec says absent-able, with its type and range, so the
// contract test that checks every admin answer against the document holds them to it.
const keyViewFields = {
  id: Type.String({ minLength: 1 }),
  name: Type.String(),
  allowed_pools: Type.Array(Type.String()),
  max_budget_cents: Type.Union([Int64, Type.Null()], { description: 'null = uncapped' }),
  budget_period: BudgetPeriod,
  rpm_limit: Type.Union([Uint32, Type.Null()], { description: 'requests per minute cap; null = none' }),
  tpm_limit: Type.Union([Uint32, Type.Null()], { description: 'tokens per minute cap; null = none' }),
  enabled: Type.Boolean(),
  created_at: Uint64,
  group: Type.Union([Type.String(), Type.Null()]),
  expires_at: Uint64,
};

export const KeyView = Type.Object(keyViewFields, { title: 'KeyView', description: 'Virtual-key metadata: never the secret or its hash.' });
export const CreatedKeyView = Type.Object(
  {
    ...keyViewFields,
    secret: Type.String({ minLength: 1, description: 'The bearer secret, returned exactly once.' }),
    aws_access_key_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Present only with issue_aws_credential.' })),
    aws_secret_access_key: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Present only with issue_aws_credential; returned once.' })),
  },
  { title: 'CreatedKeyView' },
);
export const RotatedKeyView = Type.Object({ ...keyViewFields, secret: Type.String({ minLength: 1 }) }, { title: 'RotatedKeyView' });
export const KeyPage = PageOf(KeyView, 'KeyPage');

export const KeyMeteringView = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    budget_period: Type.Union([BudgetPeriod, Type.Null()], { description: 'null when the key has no counters yet' }),
    window_start: Type.Union([Uint64, Type.Null()]),
    as_of: Uint64,
    spend_cents: Type.Integer(),
    tokens: Uint64,
    requests: Uint64,
    rate_headroom: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'fraction of the tightest RPM/TPM cap left; null = uncapped',
    }),
  },
  { title: 'KeyMeteringView' },
);

const RateCardEntry = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    tier: Type.String({ minLength: 1 }),
    input_micros_per_mtok: Int64,
    output_micros_per_mtok: Int64,
    cache_read_micros_per_mtok: Int64,
    cache_creation_micros_per_mtok: Int64,
  },
  { additionalProperties: false },
);
const Limit = Type.Object(
  {
    metric: Type.Union([Type.Literal('requests'), Type.Literal('tokens'), Type.Literal('budget'), Type.Literal('concurrent')]),
    window: Type.Union([Type.Literal('minute'), Type.Literal('hour'), Type.Literal('day'), Type.Literal('month'), Type.Literal('total')]),
    max: Int64,
  },
  { additionalProperties: false },
);

const OUTPUT_RESERVATION =
  "Output tokens reserved at admission for a request that sets no output cap when its lane sets no max_output_tokens; null = the parent group's (0 when no group in the chain sets one).";

const groupFields = {
  parent: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  enabled: Type.Optional(Type.Boolean()),
  per_request_fee_micros: Type.Optional(Int64),
  rate_card: Type.Optional(Type.Array(RateCardEntry)),
  limits: Type.Optional(Type.Array(Limit)),
  child_default: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  default_output_reservation: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 0x7fffffff }), Type.Null()], { description: OUTPUT_RESERVATION })),
};

export const CreateGroupBody = Type.Object({ name: Type.String(AUDIT_NAME_SCHEMA_OPTIONS), ...groupFields }, { additionalProperties: false });
export const PatchGroupBody = Type.Object(groupFields, { additionalProperties: false });

export const GroupView = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    parent: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
    per_request_fee_micros: Int64,
    rate_card: Type.Array(RateCardEntry),
    limits: Type.Array(Limit),
    child_default: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    default_output_reservation: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: OUTPUT_RESERVATION }),
    created_at: Uint64,
  },
  { title: 'GroupView' },
);
export const GroupPage = PageOf(GroupView, 'GroupPage');
export const GroupMeteringView = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    as_of: Uint64,
    limits: Type.Array(
      Type.Object(
        {
          metric: Limit.properties.metric,
          window: Limit.properties.window,
          max: Int64,
          used: Type.Integer({
            minimum: 0,
            description: "the current window's use: requests, tokens, micro-units of the currency (budget) or requests in flight (concurrent)",
          }),
          reserved: Type.Integer({ minimum: 0, description: 'held by requests in flight (tokens and budget), not yet settled; 0 for the other metrics' }),
          window_start: Type.Union([Uint64, Type.Null()], { description: 'null for total windows and the concurrent limit' }),
        },
        { title: 'GroupLimitUse' },
      ),
    ),
  },
  { title: 'GroupMeteringView' },
);

export const CacheFlushView = Type.Object({ flushed: Type.Integer({ minimum: 0 }) }, { title: 'CacheFlushView' });

const breakdownFields = {
  tokens_input: Uint64,
  tokens_output: Uint64,
  tokens_cache_read: Uint64,
  tokens_cache_creation: Uint64,
  requests: Uint64,
  spend_micros: Type.Integer({ description: 'micro-units of `currency`, priced at read time' }),
};
const UsageBreakdown = Type.Object(breakdownFields, { title: 'UsageBreakdown' });
export const UsageView = Type.Object(
  {
    window: Type.Object({ start: Uint64, end: Uint64 }, { title: 'UsageWindow', description: 'half-open [start, end): one UTC day' }),
    as_of: Uint64,
    currency: Type.String({ minLength: 1 }),
    total: UsageBreakdown,
    by_model: Type.Array(Type.Object({ ...breakdownFields, model: Type.String(), provider: Type.String() }, { title: 'ModelUsageView' }), {
      description: 'never capped',
    }),
    by_key: Type.Array(Type.Object({ ...breakdownFields, id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }, { title: 'KeyUsageView' }), {
      maxItems: 1000,
      description: 'the top 1000 keys by spend',
    }),
    by_key_truncated: Type.Boolean(),
    others: Type.Union([UsageBreakdown, Type.Null()], { description: 'non-null exactly when by_key_truncated; total = sum(by_key) + others' }),
  },
  { title: 'UsageView' },
);

export { PageQuery } from '../admin/paging.js';
export const UsageQuery = Type.Object({
  window: Type.Optional(Type.Integer({ minimum: 0, description: 'epoch seconds of a UTC-day bucket start (default: today)' })),
});
