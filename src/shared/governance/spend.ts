// A budget window's spend, recomputed from the raw counts in shared memory and priced with the
// one pricing rule (pricing.ts): requests charged x fee + each lane slot's tokens at its rate
// (one floor per lane) + what overflowed (accrued in micros when a window had more lanes than
// slots). The shared-memory accessors only count; this module is where counts become money, for
// admission, GET /keys/{id}/usage and the spend gauges alike. Reads only, allocation-free.
import {
  GOV_BUDGET_REQUESTS,
  GOV_GROUP_LANE_SLOTS,
  GOV_GROUP_LANE_SLOTS_AT,
  GOV_KEY_BUDGET_REQUESTS,
  GOV_KEY_LANE_SLOTS,
  GOV_KEY_LANE_SLOTS_AT,
  GOV_SLOT_CACHE_CREATION,
  GOV_SLOT_CACHE_READ,
  GOV_SLOT_INPUT,
  GOV_SLOT_OUTPUT,
  GOV_SLOT_VALUES,
} from '../sab/layout.js';
import type { GovernanceCounters } from '../sab/governance-counters.js';
import type { CardRates } from './card-rates.js';
import { costMicros, usageCostMicros } from './pricing.js';
import type { Usage } from '../model/types.js';

/** What the window's tokens cost now: each lane slot at its rate, plus the accrued overflow. */
function tokenSpendMicros(c: GovernanceCounters, slotsAt: number, slots: number, overflowAt: number, tag: number, rates: CardRates | null): number {
  let spend = c.read(overflowAt, tag);
  if (rates === null) return spend;
  for (let s = 0; s < slots; s++) {
    const at = slotsAt + s * GOV_SLOT_VALUES;
    const lane = c.read(at, tag);
    // Slots are claimed first-free and never freed within a window: the rest are free too.
    if (lane === 0) break;
    const rate = rates.of(lane);
    if (rate === null) continue;
    // A kind priced at 0 costs nothing whatever its count: not read.
    spend += costMicros(
      rate,
      rate.input_micros_per_mtok === 0 ? 0 : c.read(at + GOV_SLOT_INPUT, tag),
      rate.output_micros_per_mtok === 0 ? 0 : c.read(at + GOV_SLOT_OUTPUT, tag),
      rate.cache_read_micros_per_mtok === 0 ? 0 : c.read(at + GOV_SLOT_CACHE_READ, tag),
      rate.cache_creation_micros_per_mtok === 0 ? 0 : c.read(at + GOV_SLOT_CACHE_CREATION, tag),
    );
  }
  return spend;
}

/** A key's budget-window token spend (without the fee part). */
export function keyTokenSpend(c: GovernanceCounters, slot: number, tag: number, rates: CardRates | null): number {
  return tokenSpendMicros(c, c.keyIndex(slot, GOV_KEY_LANE_SLOTS_AT), GOV_KEY_LANE_SLOTS, c.keyOverflowIndex(slot), tag, rates);
}

/** A key's budget-window spend: requests charged x `fee` + its tokens x `rates`. */
export function keySpend(c: GovernanceCounters, slot: number, tag: number, fee: number, rates: CardRates | null): number {
  return c.read(c.keyIndex(slot, GOV_KEY_BUDGET_REQUESTS), tag) * fee + keyTokenSpend(c, slot, tag, rates);
}

/** A group window's token spend (without the fee part). */
export function groupTokenSpend(c: GovernanceCounters, slot: number, window: number, tag: number, rates: CardRates | null): number {
  return tokenSpendMicros(c, c.groupIndex(slot, window, GOV_GROUP_LANE_SLOTS_AT), GOV_GROUP_LANE_SLOTS, c.groupOverflowIndex(slot, window), tag, rates);
}

/** A group window's spend: requests charged x `fee` + its tokens x `rates`. */
export function groupSpend(c: GovernanceCounters, slot: number, window: number, tag: number, fee: number, rates: CardRates | null): number {
  return c.read(c.groupIndex(slot, window, GOV_BUDGET_REQUESTS), tag) * fee + groupTokenSpend(c, slot, window, tag, rates);
}

/** Ledger a request's tokens in a key's budget window: its lane's slot, or priced into the overflow. */
export function ledgerKeyTokens(c: GovernanceCounters, slot: number, tag: number, lane: number, usage: Usage, rates: CardRates | null): void {
  if (!c.addKeyLaneTokens(slot, tag, lane, usage)) accrue(c, c.keyOverflowIndex(slot), tag, lane, usage, rates);
}

/** Ledger a request's tokens in a group's budget window: its lane's slot, or priced into the overflow. */
export function ledgerGroupTokens(c: GovernanceCounters, slot: number, window: number, tag: number, lane: number, usage: Usage, rates: CardRates | null): void {
  if (!c.addGroupLaneTokens(slot, window, tag, lane, usage)) accrue(c, c.groupOverflowIndex(slot, window), tag, lane, usage, rates);
}

/** A lane with no slot left: its cost at the price of the moment, accrued (not re-priced later). */
function accrue(c: GovernanceCounters, overflowAt: number, tag: number, lane: number, usage: Usage, rates: CardRates | null): void {
  const rate = rates === null ? null : rates.of(lane);
  if (rate !== null) c.add(overflowAt, tag, usageCostMicros(rate, usage));
}
