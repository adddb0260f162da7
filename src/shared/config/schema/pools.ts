// Pools: weighted members over model lanes, with failover, breaker and exhaustion policy.
import { Type } from '@sinclair/typebox';

const PoolMember = Type.Object(
  {
    model: Type.String({ minLength: 1, description: 'Name of a model lane under `models`.' }),
    weight: Type.Integer({ minimum: 1, maximum: 4294967295, default: 1, description: 'Smooth weighted round-robin weight.' }),
  },
  { additionalProperties: false, description: 'A pool member.' },
);

const OnExhausted = Type.Union(
  [
    Type.Literal('reject', { description: '503 with Retry-After.' }),
    Type.Literal('status_503', { description: 'Same as `reject`.' }),
    Type.Literal('least_bad', { description: 'Serve the soonest-cooldown member with a free permit (logged loudly).' }),
    Type.Object(
      { fallback_pool: Type.String({ minLength: 1, description: 'Pool to route to instead.' }) },
      { additionalProperties: false, description: 'Route to another pool (loops are refused).' },
    ),
  ],
  { default: 'reject', description: 'What happens when every member is unusable.' },
);

const Failover = Type.Object(
  {
    max_hops: Type.Integer({ minimum: 0, default: 3, description: 'Members tried after the first one fails, before the first upstream byte.' }),
    timeout_secs: Type.Number({ exclusiveMinimum: 0, default: 120, description: 'Time budget of one request across all hops, in seconds.' }),
    attempt_timeout_secs: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description:
          'Deadline of one attempt for the response head, in seconds; when it passes the request fails over (reason attempt_timeout). Default: only the request budget.',
      }),
    ),
  },
  { additionalProperties: false, default: {}, description: 'Failover across members.' },
);

const Breaker = Type.Object(
  {
    trip: Type.Union([Type.Literal('consecutive'), Type.Literal('error_rate')], {
      default: 'consecutive',
      description:
        '`consecutive`: trip after `consecutive_n` failures in a row; `error_rate`: trip when the failure ratio over `window_secs` reaches `threshold`.',
    }),
    consecutive_n: Type.Integer({ minimum: 1, default: 3, description: 'Failures in a row that trip the breaker (trip: consecutive).' }),
    threshold: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.5, description: 'Failure ratio that trips the breaker (trip: error_rate).' }),
    window_secs: Type.Number({
      exclusiveMinimum: 0,
      maximum: 128,
      default: 60,
      description: 'Window of the error rate, in seconds (trip: error_rate); at most 128 (the shared error window holds 128 s), rounded up to whole seconds.',
    }),
    min_requests: Type.Integer({ minimum: 1, default: 5, description: 'Outcomes needed in the window before error_rate can trip.' }),
    base_cooldown_secs: Type.Number({ exclusiveMinimum: 0, default: 15, description: 'First cooldown after a trip; doubles per trip.' }),
    max_cooldown_secs: Type.Number({ exclusiveMinimum: 0, default: 120, description: 'Cooldown cap (an upstream Retry-After is a floor even above it).' }),
  },
  { additionalProperties: false, default: {}, description: 'Circuit breaker of each (pool, lane) cell.' },
);

export const Pool = Type.Object(
  {
    members: Type.Array(PoolMember, { minItems: 1, description: 'The members, in order.' }),
    on_exhausted: OnExhausted,
    failover: Failover,
    breaker: Breaker,
    hooks: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'Hooks of this pool, by name (see `hooks:`): its gates decide its routing, its taps observe its requests.',
      }),
    ),
  },
  { additionalProperties: false, description: 'A pool of model lanes.' },
);

export const PoolsSection = Type.Record(Type.String({ minLength: 1 }), Pool, { default: {}, description: 'Pools by name.' });
