// TypeBox schemas of the governance admin resources (spec and API-DECISIONS): the bodies the
// routes accept and the views they answer. The OpenAPI document is generated from them.
import { Type } from '@sinclair/typebox';
import { DURATION_PATTERN } from '../../shared/config/duration.js';

const Nullable = <T extends ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const BudgetPeriod = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Literal('total')]);
const Uint32 = Type.Integer({ minimum: 0, maximum: 4294967295 });
const Int64 = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

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

const keyViewFields = {
  id: Type.String(),
  name: Type.String(),
  allowed_pools: Type.Array(Type.String()),
  max_budget_cents: Type.Union([Type.Integer(), Type.Null()]),
  budget_period: Type.String(),
  rpm_limit: Type.Union([Type.Integer(), Type.Null()]),
  tpm_limit: Type.Union([Type.Integer(), Type.Null()]),
  enabled: Type.Boolean(),
  created_at: Type.Integer(),
  group: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Integer(),
};

export const KeyView = Type.Object(keyViewFields);
export const CreatedKeyView = Type.Object({
  ...keyViewFields,
  secret: Type.String(),
  aws_access_key_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  aws_secret_access_key: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const RotatedKeyView = Type.Object({ ...keyViewFields, secret: Type.String() });
export const KeyPage = Type.Object({ items: Type.Array(KeyView), next_cursor: Type.Union([Type.String(), Type.Null()]) });

export const KeyMeteringView = Type.Object({
  id: Type.String(),
  budget_period: Type.Union([Type.String(), Type.Null()]),
  window_start: Type.Union([Type.Integer(), Type.Null()]),
  as_of: Type.Integer(),
  spend_cents: Type.Integer(),
  tokens: Type.Integer(),
  requests: Type.Integer(),
  rate_headroom: Type.Union([Type.Number(), Type.Null()]),
});

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

const groupFields = {
  parent: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  enabled: Type.Optional(Type.Boolean()),
  per_request_fee_micros: Type.Optional(Int64),
  rate_card: Type.Optional(Type.Array(RateCardEntry)),
  limits: Type.Optional(Type.Array(Limit)),
  child_default: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
};

export const CreateGroupBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 128 }), ...groupFields }, { additionalProperties: false });
export const PatchGroupBody = Type.Object(groupFields, { additionalProperties: false });

export const GroupView = Type.Object({
  name: Type.String(),
  parent: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  per_request_fee_micros: Type.Integer(),
  rate_card: Type.Array(RateCardEntry),
  limits: Type.Array(Limit),
  child_default: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  created_at: Type.Integer(),
});
export const GroupPage = Type.Object({ items: Type.Array(GroupView), next_cursor: Type.Union([Type.String(), Type.Null()]) });

export const CacheFlushView = Type.Object({ flushed: Type.Integer({ minimum: 0 }) });

const breakdownFields = {
  tokens_input: Type.Integer(),
  tokens_output: Type.Integer(),
  tokens_cache_read: Type.Integer(),
  tokens_cache_creation: Type.Integer(),
  requests: Type.Integer(),
  spend_micros: Type.Integer(),
};
export const UsageBreakdown = Type.Object(breakdownFields);
export const UsageView = Type.Object({
  window: Type.Object({ start: Type.Integer(), end: Type.Integer() }),
  as_of: Type.Integer(),
  currency: Type.String(),
  total: UsageBreakdown,
  by_model: Type.Array(Type.Object({ ...breakdownFields, model: Type.String(), provider: Type.String() })),
  by_key: Type.Array(Type.Object({ ...breakdownFields, id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) })),
  by_key_truncated: Type.Boolean(),
  others: Type.Union([UsageBreakdown, Type.Null()]),
});

export const PageQuery = Type.Object({ limit: Type.Optional(Type.String()), cursor: Type.Optional(Type.String()) });
export const UsageQuery = Type.Object({ window: Type.Optional(Type.String()) });
