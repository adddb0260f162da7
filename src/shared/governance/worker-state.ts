// What the main thread tells every worker about keys and groups: only what admission needs,
// by key id (the token's `sub`) and group name, with the shared-memory slot of each record so a
// worker never asks main anything on the request path. Sent whole at boot (and to a restarted
// worker before its config) and as upserts/removals on every key or group mutation, which
// answers only after every worker acknowledged it.
import type { RateEntry } from './pricing.js';

/** Limit metrics as numbers (the order of GroupLimit['metric']). */
export const METRIC_REQUESTS = 0;
export const METRIC_TOKENS = 1;
export const METRIC_BUDGET = 2;
export const METRIC_CONCURRENT = 3;
export const METRIC_NAMES: readonly string[] = ['requests', 'tokens', 'budget', 'concurrent'];

export interface WorkerLimit {
  metric: number;
  /** A window kind of src/shared/governance/windows.ts (ignored for `concurrent`). */
  window: number;
  max: number;
}

export interface WorkerGroup {
  name: string;
  parent: string | null;
  enabled: boolean;
  feeMicros: number;
  rateCard: RateEntry[];
  limits: WorkerLimit[];
  /** Shared-memory record of the group (SlotRegistry.groupSlot). */
  slot: number;
}

export interface WorkerKey {
  id: string;
  /** The current secret's jti; a secret with another one (rotated away) is refused. */
  jti: string;
  enabled: boolean;
  group: string | null;
  /** Allowed pool names; `*` allows every pool. */
  pools: string[];
  /** -1 = uncapped. */
  rpm: number;
  tpm: number;
  budgetMicros: number;
  /** Window kind of the key's budget_period. */
  budgetWindow: number;
  /** Shared-memory record of the key (SlotRegistry.allocateKeySlot). */
  slot: number;
  awsAccessKeyId: string | null;
}

/** Whether limits apply (governance.enabled) travels in the compiled config. */
export interface GovernanceSnapshot {
  keys: WorkerKey[];
  groups: WorkerGroup[];
}
