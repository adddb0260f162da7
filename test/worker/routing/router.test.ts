// The router in process, over real shared memory and a real compiled config, with the clock
// and the random source injected: picks, permits and probes, each attempt's end on its breaker
// cell and lane, and on_exhausted (reject with the soonest cooldown, fallback_pool, least_bad).
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptOutcome } from '../../../src/shared/routing/attempt-outcome.js';
import { Availability } from '../../../src/shared/routing/availability.js';
import { BREAKER_OPEN } from '../../../src/shared/sab/layout.js';
import { AttemptPlan } from '../../../src/worker/routing/attempt-plan.js';
import { Exhaustion } from '../../../src/worker/routing/router.js';
import { startRig, type Rig } from '../pipeline/attempt-rig.js';

let rig: Rig | null = null;
afterEach(() => {
  rig?.close();
  rig = null;
});

function planOn(r: Rig, pool: string): AttemptPlan {
  const plan = new AttemptPlan();
  plan.pool = r.runtime.pools.get(pool)!;
  plan.poolsVisited = 1;
  plan.deadlineMs = r.clock.mono + 60_000;
  return plan;
}

describe('Router', () => {
  it('select takes a member by SWRR with its permit, never the same lane twice in a request', async () => {
    rig = await startRig({
      p: {
        members: [
          { model: 'm1', weight: 3 },
          { model: 'm2', weight: 1 },
        ],
      },
    });
    const router = rig.deps.router;
    const picks: string[] = [];
    for (let i = 0; i < 4; i++) {
      const plan = planOn(rig, 'p');
      assert.ok(router.select(plan));
      picks.push(plan.lane!.compiled.name);
      router.endAttempt(plan, AttemptOutcome.Ok, 0, rig.clock.mono);
    }
    assert.deepEqual(picks.sort(), ['m1', 'm1', 'm1', 'm2'], 'weights 3:1 over one round');
    const plan = planOn(rig, 'p');
    assert.ok(router.select(plan));
    assert.ok(plan.permitHeld);
    const first = plan.lane!.compiled.name;
    router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
    assert.ok(router.select(plan), 'the other member');
    assert.notEqual(plan.lane!.compiled.name, first);
    router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
    assert.equal(router.select(plan), false, 'both tried: none left');
    assert.equal(plan.hops, 2);
  });

  it('endAttempt: success tallies ok and a latency sample; an upstream fault moves the cell; a caller abort does not', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } });
    const router = rig.deps.router;
    const lane = rig.config.lanes[0]!;
    const cell = rig.config.pools[0]!.members[0]!.cellSlot;
    let plan = planOn(rig, 'p');
    router.select(plan);
    plan.attemptStartMs = rig.clock.mono;
    router.endAttempt(plan, AttemptOutcome.Ok, 0, rig.clock.mono + 40);
    assert.equal(rig.shared.lanes.laneOk(lane.slot), 1);
    assert.ok(rig.shared.lanes.latencyEwmaMs(lane.slot)! > 0);
    plan = planOn(rig, 'p');
    router.select(plan);
    router.endAttempt(plan, AttemptOutcome.CallerAbort, 0, rig.clock.mono);
    assert.equal(rig.shared.breakers.streak(cell), 0, "a caller abort is nobody's fault");
    plan = planOn(rig, 'p');
    router.select(plan);
    router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
    assert.equal(rig.shared.breakers.streak(cell), 1);
    assert.equal(rig.shared.lanes.laneErr(lane.slot), 1);
    assert.equal(rig.shared.lanes.laneInflight(lane.slot), 0, 'every permit back');
  });

  it('exhaustion rejects with the soonest genuine cooldown as Retry-After', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }, { model: 'm2' }], breaker: { trip: 'consecutive', consecutive_n: 1, base_cooldown_secs: 15 } } });
    const router = rig.deps.router;
    for (let i = 0; i < 2; i++) {
      const plan = planOn(rig, 'p');
      assert.ok(router.select(plan));
      router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
    }
    for (const m of rig.config.pools[0]!.members) assert.equal(rig.shared.breakers.state(m.cellSlot), BREAKER_OPEN);
    const plan = planOn(rig, 'p');
    assert.equal(router.select(plan), false);
    rig.clock.advance(5_000);
    assert.equal(router.exhaustion(plan, rig.runtime), Exhaustion.Reject);
    assert.ok(router.retryAfterSecs >= 8 && router.retryAfterSecs <= 12, `${router.retryAfterSecs} s left of a jittered 15 s cooldown, 5 s in`);
  });

  it('exhaustion with fallback_pool moves the plan to that pool', async () => {
    rig = await startRig({
      p: { members: [{ model: 'm1' }], on_exhausted: { fallback_pool: 'q' }, breaker: { trip: 'consecutive', consecutive_n: 1 } },
      q: { members: [{ model: 'm2' }] },
    });
    const router = rig.deps.router;
    let plan = planOn(rig, 'p');
    router.select(plan);
    router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
    plan = planOn(rig, 'p');
    assert.equal(router.select(plan), false);
    assert.equal(router.exhaustion(plan, rig.runtime), Exhaustion.Fallback);
    assert.equal(plan.pool!.compiled.name, 'q');
    assert.ok(router.select(plan));
    assert.equal(plan.lane!.compiled.name, 'm2');
  });

  it('exhaustion with least_bad serves the member whose cooldown ends first', async () => {
    rig = await startRig({
      p: { members: [{ model: 'm1' }, { model: 'm2' }], on_exhausted: 'least_bad', breaker: { trip: 'consecutive', consecutive_n: 1, base_cooldown_secs: 15 } },
    });
    const router = rig.deps.router;
    const order: string[] = [];
    for (let i = 0; i < 2; i++) {
      const plan = planOn(rig, 'p');
      router.select(plan);
      order.push(plan.lane!.compiled.name);
      router.endAttempt(plan, AttemptOutcome.Transient, 0, rig.clock.mono);
      rig.clock.advance(1_000);
    }
    const plan = planOn(rig, 'p');
    assert.equal(router.select(plan), false);
    assert.equal(router.exhaustion(plan, rig.runtime), Exhaustion.LeastBad);
    assert.equal(plan.lane!.compiled.name, order[0], 'the one that tripped first cools down first');
    assert.ok(plan.permitHeld);
  });

  it('selectDirect: the lane-default cell; at capacity when its permits are taken', async () => {
    rig = await startRig({ p: { members: [{ model: 'm1' }] } }, { m1: { provider: 'up', max_concurrent: 1 }, m2: { provider: 'up' } });
    const router = rig.deps.router;
    const lane = rig.runtime.lanesByName.get('m1')!;
    const first = new AttemptPlan();
    assert.equal(router.selectDirect(first, lane), Availability.Available);
    assert.equal(first.cell, lane.compiled.defaultCellSlot);
    assert.equal(router.selectDirect(new AttemptPlan(), lane), Availability.AtCapacity);
    router.endAttempt(first, AttemptOutcome.Ok, 0, rig.clock.mono);
    assert.equal(router.selectDirect(new AttemptPlan(), lane), Availability.Available);
  });
});
