// One test per row of the spec's lane circuit breaker state table, with an injected clock and
// random source: state, cooldown bounds (the jitter range), trip count and last trip time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BREAKER_CLOSED, BREAKER_HALF_OPEN, BREAKER_OPEN, SharedState, SlotRegistry } from '../../../src/shared/sab/index.js';
import { CELL_HARD_DOWN_AUTH, CELL_HARD_DOWN_BILLING } from '../../../src/shared/sab/layout.js';
import { BreakerEffect, BreakerPolicy, DEFAULT_BREAKER, HARD_DOWN_COOLDOWN_MS, SHORT_COOLDOWN_MS } from '../../../src/shared/routing/breaker-policy.js';
import { Availability, availabilityOf } from '../../../src/shared/routing/availability.js';
import type { CompiledBreaker, CompiledLane } from '../../../src/shared/config/compiled.js';

const BASE_MS = 1_700_000_000_000;

interface Rig {
  shared: SharedState;
  policy: BreakerPolicy;
  cell: number;
  registry: SlotRegistry;
  lane: CompiledLane;
  clock: { nowMs: number };
  /** The next values the random source returns (then 0.5 = no jitter). */
  randoms: number[];
}

function rig(): Rig {
  const shared = SharedState.create({ holders: 3, timeBaseMs: BASE_MS });
  const registry = new SlotRegistry(shared);
  const clock = { nowMs: BASE_MS + 5_000 };
  const randoms: number[] = [];
  const policy = new BreakerPolicy(
    shared.breakers,
    () => clock.nowMs,
    () => randoms.shift() ?? 0.5,
  );
  const lane: CompiledLane = {
    name: 'gpt',
    provider: 0,
    upstreamModel: 'gpt',
    maxConcurrent: 0,
    maxRequests: 0,
    maxOutputTokens: 0,
    slot: registry.laneSlot('gpt'),
    defaultCellSlot: registry.defaultCellSlot('gpt'),
    directDispositionSlots: [],
    directTripSlot: 0,
    directAttemptSlot: 0,
    directLatency: { firstToken: [], perOutputToken: [], tokensPerSecond: [] },
    attemptDurationSlot: 0,
  };
  return { shared, policy, cell: registry.cellSlot('p', 'gpt'), registry, lane, clock, randoms };
}

const nowSec = (r: Rig): number => Math.floor(r.clock.nowMs / 1000);
const cooldownLeft = (r: Rig): number => r.shared.breakers.cooldownRemainingMs(r.cell, r.clock.nowMs);
/** Cooldowns are stored in 100 ms ticks, rounded up. */
function assertCooldownWithin(r: Rig, lowMs: number, highMs: number): void {
  const left = cooldownLeft(r);
  assert.ok(left >= lowMs && left <= highMs + 100, `cooldown ${left} ms not in [${lowMs}, ${highMs}]`);
}

function trip(r: Rig, breaker: CompiledBreaker = DEFAULT_BREAKER): void {
  for (let i = 0; i < breaker.consecutiveN; i++) r.policy.recordFailure(r.cell, breaker, 0, false);
}

/** Let the cooldown run out and take the probe. */
function expireAndProbe(r: Rig): void {
  r.clock.nowMs += cooldownLeft(r) + 1;
  assert.equal(r.policy.tryBeginProbe(r.cell), true);
}

describe('breaker state table (BreakerPolicy)', () => {
  it('Closed, single upstream failure, no trip: stays Closed with a short cooldown (briefly skipped)', () => {
    const r = rig();
    assert.equal(r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false), BreakerEffect.ShortCooldown);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
    assertCooldownWithin(r, SHORT_COOLDOWN_MS - 100, SHORT_COOLDOWN_MS);
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.BreakerOpen, 'skipped while the short cooldown runs');
    assert.equal(r.shared.breakers.tripCount(r.cell), 0);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), 0);
    r.clock.nowMs += SHORT_COOLDOWN_MS + 100;
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.Available);
  });

  it('Closed, trip condition met (consecutive): Open, trip_count +1, last_trip_at, base cooldown +/-10%', () => {
    const r = rig();
    r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false);
    r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
    r.randoms.push(0.999999); // +10%
    assert.equal(r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false), BreakerEffect.Tripped);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), nowSec(r));
    assertCooldownWithin(r, 16_400, 16_500);
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.BreakerOpen);
  });

  it('Closed, trip condition met (error_rate): never before min_requests, then at the threshold', () => {
    const r = rig();
    const breaker: CompiledBreaker = { ...DEFAULT_BREAKER, trip: 'error_rate', threshold: 0.5, minRequests: 5, windowSecs: 10 };
    r.policy.recordFailure(r.cell, breaker, 0, false);
    r.policy.recordFailure(r.cell, breaker, 0, false);
    r.policy.recordFailure(r.cell, breaker, 0, false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED, '3 failures of 3 outcomes: below min_requests');
    r.policy.recordSuccess(r.cell, false);
    r.clock.nowMs += 1_000; // a later second inside the window
    r.randoms.push(0); // -10%
    assert.equal(r.policy.recordFailure(r.cell, breaker, 0, false), BreakerEffect.Tripped, '4 of 5 failed');
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), nowSec(r));
    assertCooldownWithin(r, 13_500, 13_600);
  });

  it('cooldown doubles from base to max with +/-10% jitter while the open streak grows', () => {
    const r = rig();
    trip(r);
    assertCooldownWithin(r, 13_500, 16_500);
    for (const stepSecs of [30, 60, 120, 120]) {
      expireAndProbe(r);
      assert.equal(r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, true), BreakerEffect.Reopened);
      assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
      assertCooldownWithin(r, stepSecs * 900, stepSecs * 1100);
    }
    assert.equal(r.shared.breakers.tripCount(r.cell), 1, 'a failed probe is not a new trip');
  });

  it('an upstream Retry-After is a floor even above max_cooldown_secs', () => {
    const r = rig();
    r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false);
    r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, false);
    r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 300_000, false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assertCooldownWithin(r, 300_000, 300_000);
    const r2 = rig();
    r2.policy.recordFailure(r2.cell, DEFAULT_BREAKER, 5_000, false);
    assert.equal(r2.shared.breakers.state(r2.cell), BREAKER_CLOSED);
    assert.ok(r2.shared.breakers.cooldownRemainingMs(r2.cell, r2.clock.nowMs) >= 5_000, 'a short cooldown honours Retry-After too');
  });

  it('Closed, hard-down billing/quota: Open at once, sticky 30 min, dead; no permanent dead flag', () => {
    const r = rig();
    assert.equal(r.policy.recordHardDown(r.cell, CELL_HARD_DOWN_BILLING, false), BreakerEffect.Tripped);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), nowSec(r));
    assertCooldownWithin(r, HARD_DOWN_COOLDOWN_MS, HARD_DOWN_COOLDOWN_MS);
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.Dead);
    r.clock.nowMs += HARD_DOWN_COOLDOWN_MS + 100;
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.Available, 'after the sticky cooldown a probe may go');
    assert.equal(r.policy.tryBeginProbe(r.cell), true);
    r.policy.recordSuccess(r.cell, true);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
    assert.equal(r.shared.breakers.hardDown(r.cell), 0);
  });

  it('Closed, hard-down auth: Open at once with the same sticky cooldown (the caller gets the error)', () => {
    const r = rig();
    assert.equal(r.policy.recordHardDown(r.cell, CELL_HARD_DOWN_AUTH, false), BreakerEffect.Tripped);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.shared.breakers.hardDown(r.cell), CELL_HARD_DOWN_AUTH);
    assertCooldownWithin(r, HARD_DOWN_COOLDOWN_MS, HARD_DOWN_COOLDOWN_MS);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), nowSec(r));
  });

  it('Open, cooldown expires and a selection occurs: HalfOpen with exactly one probe admitted', () => {
    const r = rig();
    trip(r);
    assert.equal(r.policy.tryBeginProbe(r.cell), false, 'not while cooling down');
    r.clock.nowMs += cooldownLeft(r) + 1;
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.Available);
    assert.equal(r.policy.tryBeginProbe(r.cell), true);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_HALF_OPEN);
    assert.equal(r.policy.tryBeginProbe(r.cell), false, 'single flight');
    const worker = SharedState.attach(r.shared.buffers(), 2);
    assert.equal(
      new BreakerPolicy(
        worker.breakers,
        () => r.clock.nowMs,
        () => 0.5,
      ).tryBeginProbe(r.cell),
      false,
      'whatever worker asks',
    );
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.ProbeInFlight);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
  });

  it('HalfOpen, probe succeeds: Closed, streak and error window cleared', () => {
    const r = rig();
    trip(r);
    expireAndProbe(r);
    assert.equal(r.policy.recordSuccess(r.cell, true), BreakerEffect.Closed);
    const b = r.shared.breakers;
    assert.equal(b.state(r.cell), BREAKER_CLOSED);
    assert.equal(b.streak(r.cell), 0);
    assert.equal(b.openStreak(r.cell), 0);
    assert.equal(b.probeInFlight(r.cell), false);
    assert.equal(cooldownLeft(r), 0);
    const counts = { ok: -1, err: -1 };
    b.readErrorWindow(r.cell, nowSec(r), 60, counts);
    assert.deepEqual(counts, { ok: 0, err: 0 });
    assert.equal(b.tripCount(r.cell), 1, 'trip_count is monotonic');
    // The next trip starts again from the base cooldown.
    trip(r);
    assertCooldownWithin(r, 13_500, 16_500);
  });

  it('HalfOpen, probe fails: Open with an escalated cooldown', () => {
    const r = rig();
    trip(r);
    const lastTrip = r.shared.breakers.lastTripSec(r.cell);
    expireAndProbe(r);
    r.randoms.push(0.5);
    assert.equal(r.policy.recordFailure(r.cell, DEFAULT_BREAKER, 0, true), BreakerEffect.Reopened);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assertCooldownWithin(r, 30_000, 30_000);
    assert.equal(r.shared.breakers.probeInFlight(r.cell), false);
    assert.equal(r.shared.breakers.tripCount(r.cell), 1);
    assert.equal(r.shared.breakers.lastTripSec(r.cell), lastTrip);
  });

  it('Open, successful active health probe: every cell of the lane closes', () => {
    const r = rig();
    trip(r);
    const other = r.registry.cellSlot('q', 'gpt');
    for (let i = 0; i < 3; i++) r.policy.recordFailure(other, DEFAULT_BREAKER, 0, false);
    r.policy.recordHardDown(r.lane.defaultCellSlot, CELL_HARD_DOWN_BILLING, false);
    r.policy.closeByHealthProbe([r.cell, other, r.lane.defaultCellSlot]);
    for (const cell of [r.cell, other, r.lane.defaultCellSlot]) {
      assert.equal(r.shared.breakers.state(cell), BREAKER_CLOSED);
      assert.equal(r.shared.breakers.cooldownRemainingMs(cell, r.clock.nowMs), 0);
      assert.equal(r.shared.breakers.streak(cell), 0);
      assert.equal(availabilityOf(r.shared, cell, r.lane, r.clock.nowMs), Availability.Available);
      assert.equal(r.shared.breakers.tripCount(cell), 1);
    }
  });

  it('a neutral outcome (caller abort, 4xx, missing credential) moves nothing but gives the probe back', () => {
    const r = rig();
    trip(r);
    expireAndProbe(r);
    r.policy.recordNeutral(r.cell, true);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_HALF_OPEN);
    assert.equal(r.shared.breakers.probeInFlight(r.cell), false);
    assert.equal(r.policy.tryBeginProbe(r.cell), true, 'the next selection may probe');
  });
});

describe('breaker settings changed by a config apply or reload (BreakerPolicy.followSettings)', () => {
  const RAISED: CompiledBreaker = { ...DEFAULT_BREAKER, consecutiveN: 5 };

  it('an Open cell the raised consecutive_n no longer trips closes at once, keeping its streak', () => {
    const r = rig();
    trip(r);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.policy.followSettings(r.cell, RAISED), true);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
    assert.equal(cooldownLeft(r), 0, 'no cooldown left');
    assert.equal(r.shared.breakers.openStreak(r.cell), 0, 'the doubling starts again');
    assert.equal(r.shared.breakers.tripCount(r.cell), 1, 'the trip stays counted');
    assert.equal(availabilityOf(r.shared, r.cell, r.lane, r.clock.nowMs), Availability.Available);
    // The streak (3) counts on: two more failures make the new five.
    r.policy.recordFailure(r.cell, RAISED, 0, false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
    assert.equal(r.policy.recordFailure(r.cell, RAISED, 0, false), BreakerEffect.Tripped);
    assertCooldownWithin(r, 13_500, 16_500); // the base step again, not a doubled one
  });

  it('a cell the new settings still trip stays Open with its cooldown', () => {
    const r = rig();
    trip(r);
    const before = cooldownLeft(r);
    assert.equal(r.policy.followSettings(r.cell, { ...DEFAULT_BREAKER, maxCooldownSecs: 30 }), false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(cooldownLeft(r), before);
  });

  it("an error-rate trip closes when the threshold is raised above the window's rate", () => {
    const r = rig();
    const rate: CompiledBreaker = { ...DEFAULT_BREAKER, trip: 'error_rate', threshold: 0.5, minRequests: 4 };
    for (let i = 0; i < 2; i++) r.policy.recordSuccess(r.cell, false);
    for (let i = 0; i < 2 && r.shared.breakers.state(r.cell) === BREAKER_CLOSED; i++) r.policy.recordFailure(r.cell, rate, 0, false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_OPEN);
    assert.equal(r.policy.followSettings(r.cell, { ...rate, threshold: 0.9 }), true);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_CLOSED);
  });

  it('leaves HalfOpen, hard-down and Closed cells alone', () => {
    const r = rig();
    trip(r);
    expireAndProbe(r);
    assert.equal(r.policy.followSettings(r.cell, RAISED), false);
    assert.equal(r.shared.breakers.state(r.cell), BREAKER_HALF_OPEN);

    const hard = rig();
    hard.policy.recordHardDown(hard.cell, CELL_HARD_DOWN_BILLING, false);
    assert.equal(hard.policy.followSettings(hard.cell, RAISED), false);
    assert.equal(hard.shared.breakers.state(hard.cell), BREAKER_OPEN);

    const closed = rig();
    closed.policy.recordFailure(closed.cell, RAISED, 0, false);
    closed.policy.recordFailure(closed.cell, RAISED, 0, false);
    assert.equal(closed.policy.followSettings(closed.cell, { ...DEFAULT_BREAKER, consecutiveN: 2 }), false, 'never tripped by a settings change');
    assert.equal(closed.shared.breakers.state(closed.cell), BREAKER_CLOSED);
  });
});
