// The read side of routing, from shared memory only: the lane record of GET /stats (through
// the lane-default cell), a pool member's status (through its (pool, lane) cell) for /stats
// and the admin PoolDetailView, and /healthz. Workers and the main thread (holder 0) build the
// same views from the same words, with the same availability function routing dispatches on.
import type { CompiledConfig, CompiledLane } from '../config/compiled.js';
import type { SharedState } from '../sab/index.js';
import { BREAKER_CLOSED } from '../sab/layout.js';
import { AVAILABILITY_NAMES, Availability, BREAKER_STATE_NAMES, HARD_DOWN_REASON_NAMES, availabilityOf, recoveryHintMs, usableBySpec } from './availability.js';
import { DISPOSITION_NAMES, FAILOVER_REASON_NAMES } from './attempt-outcome.js';

/** The spec's PoolMemberStatusView (all twelve fields) plus what /stats adds. */
export interface CellStatus {
  model: string;
  weight: number;
  usable: boolean;
  cooldown_remaining_seconds: number;
  available_concurrency: number | null;
  inflight: number;
  latency_ms: number | null;
  ok: number;
  err: number;
  dead: boolean;
  trip_count: number;
  last_trip_at: number | null;
}

function deadReasonOf(shared: SharedState, cell: number, availability: Availability): string | null {
  if (availability !== Availability.Dead) return null;
  return HARD_DOWN_REASON_NAMES[shared.breakers.hardDown(cell)] ?? 'dead';
}

function dispositions(shared: SharedState, slots: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let d = 0; d < DISPOSITION_NAMES.length; d++) out[DISPOSITION_NAMES[d]!] = shared.metrics.counterValue(slots[d]!);
  return out;
}

function failovers(shared: SharedState, slots: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let r = 0; r < FAILOVER_REASON_NAMES.length; r++) out[FAILOVER_REASON_NAMES[r]!] = shared.metrics.counterValue(slots[r]!);
  return out;
}

/** The PoolMemberStatusView of `lane` through `cell`. `available_concurrency` is null for an unbounded lane. */
export function cellStatus(shared: SharedState, lane: CompiledLane, cell: number, weight: number, nowMs: number): CellStatus {
  const availability = availabilityOf(shared, cell, lane, nowMs);
  const last = shared.breakers.lastTripSec(cell);
  return {
    model: lane.name,
    weight,
    usable: usableBySpec(shared, availability, cell, nowMs),
    cooldown_remaining_seconds: Math.ceil(shared.breakers.cooldownRemainingMs(cell, nowMs) / 1000),
    available_concurrency: lane.maxConcurrent === 0 ? null : shared.lanes.availablePermits(lane.slot, lane.maxConcurrent),
    inflight: shared.lanes.laneInflight(lane.slot),
    latency_ms: shared.lanes.latencyEwmaMs(lane.slot),
    ok: shared.lanes.laneOk(lane.slot),
    err: shared.lanes.laneErr(lane.slot),
    dead: availability === Availability.Dead,
    trip_count: shared.breakers.tripCount(cell),
    last_trip_at: last === 0 ? null : last,
  };
}

/** What /stats shows of a cell beyond the member status: the spec's lane-record breaker fields. */
function cellDetail(shared: SharedState, lane: CompiledLane, cell: number, nowMs: number): Record<string, unknown> {
  const availability = availabilityOf(shared, cell, lane, nowMs);
  const bounded = lane.maxConcurrent !== 0;
  const free = bounded ? shared.lanes.availablePermits(lane.slot, lane.maxConcurrent) : null;
  return {
    availability: AVAILABILITY_NAMES[availability],
    recovery_hint_ms: recoveryHintMs(shared, availability, cell, nowMs),
    breaker_state: BREAKER_STATE_NAMES[shared.breakers.state(cell)],
    at_capacity: bounded && free! <= 0,
    usable: usableBySpec(shared, availability, cell, nowMs),
    dead: availability === Availability.Dead,
    dead_reason: deadReasonOf(shared, cell, availability),
    cooldown_remaining_s: Math.ceil(shared.breakers.cooldownRemainingMs(cell, nowMs) / 1000),
    streak: shared.breakers.streak(cell),
    trip_count: shared.breakers.tripCount(cell),
    last_trip_at: shared.breakers.lastTripSec(cell) === 0 ? null : shared.breakers.lastTripSec(cell),
    probe_in_flight: shared.breakers.probeInFlight(cell),
  };
}

/** GET /stats: every lane (its lane-default cell) with pool membership, and every pool's members. */
export function statsView(shared: SharedState, config: CompiledConfig, nowMs: number): unknown {
  const poolsOfLane: string[][] = config.lanes.map(() => []);
  for (const pool of config.pools) for (const m of pool.members) poolsOfLane[m.lane]!.push(pool.name);
  const lanes = config.lanes.map((lane, i) => {
    const bounded = lane.maxConcurrent !== 0;
    const free = bounded ? shared.lanes.availablePermits(lane.slot, lane.maxConcurrent) : null;
    return {
      model: lane.name,
      provider: config.providers[lane.provider]!.name,
      max_concurrent: bounded ? lane.maxConcurrent : null,
      limit: bounded ? lane.maxConcurrent : null,
      inflight: shared.lanes.laneInflight(lane.slot),
      free_slots: free,
      available: bounded ? free : 'unbounded',
      ok: shared.lanes.laneOk(lane.slot),
      err: shared.lanes.laneErr(lane.slot),
      latency_ms: shared.lanes.latencyEwmaMs(lane.slot),
      budget: lane.maxRequests === 0 ? null : { max_requests: lane.maxRequests, remaining: shared.lanes.lifetimeRemaining(lane.slot, lane.maxRequests) },
      ...cellDetail(shared, lane, lane.defaultCellSlot, nowMs),
      pools: poolsOfLane[i],
      dispositions: dispositions(shared, lane.directDispositionSlots),
    };
  });
  const pools = config.pools.map((pool) => ({
    name: pool.name,
    members: pool.members.map((m) => {
      const lane = config.lanes[m.lane]!;
      return {
        ...cellStatus(shared, lane, m.cellSlot, m.weight, nowMs),
        ...cellDetail(shared, lane, m.cellSlot, nowMs),
        dispositions: dispositions(shared, m.dispositionSlots),
      };
    }),
    unrouted: dispositions(shared, pool.noLaneDispositionSlots),
    failovers: failovers(shared, pool.failoverSlots),
  }));
  // Requests that ended before any pool or lane was known (refused by authentication, a bad
  // body, an unknown name, an edge answer, a caller that left before the body was read).
  return { lanes, pools, untargeted: dispositions(shared, config.unroutedDispositionSlots) };
}

/**
 * GET /healthz: some lane is usable in the spec's sense (usableBySpec), through its default cell
 * or any pool cell over it. A lane merely at capacity keeps the node healthy.
 */
export function anyLaneUsable(shared: SharedState, config: CompiledConfig, nowMs: number): boolean {
  for (const lane of config.lanes)
    if (usableBySpec(shared, availabilityOf(shared, lane.defaultCellSlot, lane, nowMs), lane.defaultCellSlot, nowMs)) return true;
  for (const pool of config.pools) {
    for (const m of pool.members) if (usableBySpec(shared, availabilityOf(shared, m.cellSlot, config.lanes[m.lane]!, nowMs), m.cellSlot, nowMs)) return true;
  }
  return false;
}

/** Whether any cell of the lane is not Closed (the `dead` health mode re-probes only these lanes). */
export function laneHasOpenCell(shared: SharedState, config: CompiledConfig, laneIndex: number): boolean {
  const lane = config.lanes[laneIndex]!;
  if (shared.breakers.state(lane.defaultCellSlot) !== BREAKER_CLOSED) return true;
  for (const pool of config.pools) {
    for (const m of pool.members) if (m.lane === laneIndex && shared.breakers.state(m.cellSlot) !== BREAKER_CLOSED) return true;
  }
  return false;
}

/** Every breaker cell over the lane (what a successful health probe closes). */
export function cellsOfLane(config: CompiledConfig, laneIndex: number): number[] {
  const cells = [config.lanes[laneIndex]!.defaultCellSlot];
  for (const pool of config.pools) for (const m of pool.members) if (m.lane === laneIndex) cells.push(m.cellSlot);
  return cells;
}
