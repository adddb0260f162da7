// The governance records the store keeps. A key record holds metadata only: never the bearer
// secret (a JWS the gateway can verify without storing it) nor an AWS secret (derived from the
// signing key and the access key id when needed, see main/governance/aws-credential.ts).
import type { KeyUsageRecord } from '../../shared/messages.js';
import type { RateEntry } from '../../shared/governance/pricing.js';
import type { BudgetPeriod, GroupWindowName } from '../../shared/governance/windows.js';

export interface KeyRecord {
  id: string;
  name: string;
  /** The bound group, or null: only the key's own limits apply. */
  group: string | null;
  allowed_pools: string[];
  max_budget_cents: number | null;
  budget_period: BudgetPeriod;
  rpm_limit: number | null;
  tpm_limit: number | null;
  enabled: boolean;
  created_at: number;
  /** Epoch seconds the current secret expires. */
  expires_at: number;
  /** The current secret's `jti`: a rotated-away secret carries another one and is refused. */
  jti: string;
  aws_access_key_id: string | null;
}

type LimitMetric = 'requests' | 'tokens' | 'budget' | 'concurrent';

export interface GroupLimit {
  metric: LimitMetric;
  window: GroupWindowName;
  /** requests, tokens, micro-units of the currency (budget) or requests in flight. */
  max: number;
}

export interface GroupRecord {
  name: string;
  parent: string | null;
  enabled: boolean;
  per_request_fee_micros: number;
  rate_card: RateEntry[];
  limits: GroupLimit[];
  child_default: Record<string, unknown> | null;
  /** Output tokens reserved for a request that sets no cap when its lane sets none either;
   * null (or absent in a record written before it existed) = the parent's, else 0. */
  default_output_reservation?: number | null;
  created_at: number;
}

/** A revoked key id; kept until its last secret would have expired anyway. */
export interface Revocation {
  id: string;
  expires_at: number;
  revoked_at: number;
}

/** Metered usage of one (UTC day, key, model lane, provider): the shape workers send. */
export type KeyUsageRow = KeyUsageRecord;

/** The tagged counter words of one key (`key:<id>`) or group (`group:<name>`); `words` null
 * deletes the saved row. */
export interface CounterRow {
  holder: string;
  words: string[] | null;
}

export interface GovernanceRecords {
  keys: KeyRecord[];
  groups: GroupRecord[];
  revocations: Revocation[];
  counters: CounterRow[];
}
