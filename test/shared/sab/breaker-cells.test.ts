import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BREAKER_CLOSED,
  BREAKER_HALF_OPEN,
  BREAKER_OPEN,
  ERROR_WINDOW_SLOTS,
  ErrorWindowCounts,
  SharedInvariantError,
  SharedState,
  SlotRegistry,
  workerHolder,
} from '../../../src/shared/sab/index.js';

const BASE_MS = 1_700_000_000_000;
const T0 = 1_700_000_000;

function setup(): { main: SharedState; registry: SlotRegistry; cell: number } {
  const main = SharedState.create({ holders: 3, timeBaseMs: BASE_MS });
  const registry = new SlotRegistry(main);
  return { main, registry, cell: registry.cellSlot('p', 'gpt') };
}

describe('breaker state', () => {
  it('starts closed and moves only from the expected state', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    assert.equal(b.state(cell), BREAKER_CLOSED);
    assert.equal(b.casState(cell, BREAKER_CLOSED, BREAKER_OPEN), true);
    assert.equal(b.casState(cell, BREAKER_CLOSED, BREAKER_OPEN), false, 'the second tripper loses');
    assert.equal(b.casState(cell, BREAKER_OPEN, BREAKER_HALF_OPEN), true);
    assert.equal(b.state(cell), BREAKER_HALF_OPEN);
    assert.throws(() => b.casState(cell, BREAKER_HALF_OPEN, 7), RangeError);
  });

  it('counts a streak and resets it', () => {
    const { main, cell } = setup();
    assert.equal(main.breakers.incrementStreak(cell), 1);
    assert.equal(main.breakers.incrementStreak(cell), 2);
    assert.equal(main.breakers.streak(cell), 2);
    main.breakers.resetStreak(cell);
    assert.equal(main.breakers.streak(cell), 0);
  });

  it('counts trips and remembers the last one', () => {
    const { main, cell } = setup();
    assert.equal(main.breakers.lastTripSec(cell), 0);
    assert.equal(main.breakers.incrementTripCount(cell), 1);
    assert.equal(main.breakers.incrementTripCount(cell), 2);
    main.breakers.setLastTripSec(cell, T0);
    assert.equal(main.breakers.lastTripSec(cell), T0);
    main.breakers.setTripCount(cell, 41);
    assert.equal(main.breakers.incrementTripCount(cell), 42);
    assert.throws(() => main.breakers.setLastTripSec(cell, -1), RangeError);
  });
});

describe('single-flight probe', () => {
  it('lets one holder claim and only that holder release', () => {
    const { main, cell } = setup();
    const w = SharedState.attach(main.buffers(), workerHolder(0));
    assert.equal(main.breakers.probeInFlight(cell), false);
    assert.equal(main.breakers.probeHolder(cell), -1);
    assert.equal(w.breakers.tryClaimProbe(cell), true);
    assert.equal(main.breakers.tryClaimProbe(cell), false);
    assert.equal(w.breakers.tryClaimProbe(cell), false, 'not re-entrant');
    assert.equal(main.breakers.probeHolder(cell), 1);
    assert.throws(() => main.breakers.releaseProbe(cell), SharedInvariantError);
    assert.equal(main.faultCount(), 1);
    w.breakers.releaseProbe(cell);
    assert.equal(main.breakers.probeInFlight(cell), false);
  });

  it("main reclaims a dead holder's probe", () => {
    const { main, registry, cell } = setup();
    const other = registry.defaultCellSlot('gpt');
    const w = SharedState.attach(main.buffers(), workerHolder(1));
    w.breakers.tryClaimProbe(cell);
    w.breakers.tryClaimProbe(other);
    assert.deepEqual(registry.reclaimHolder(workerHolder(1)), { permits: 0, probes: 2, reservations: 0 });
    assert.equal(main.breakers.probeInFlight(cell), false);
    assert.equal(main.breakers.tryClaimProbe(cell), true);
  });
});

describe('cooldown', () => {
  it('stores ms deadlines rounded up to the next 100 ms tick', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    assert.equal(b.cooldownUntilMs(cell), 0);
    assert.equal(b.cooldownRemainingMs(cell, BASE_MS), 0);
    b.setCooldownUntil(cell, BASE_MS + 15_000);
    assert.equal(b.cooldownUntilMs(cell), BASE_MS + 15_000);
    assert.equal(b.cooldownRemainingMs(cell, BASE_MS + 1_000), 14_000);
    assert.equal(b.cooldownRemainingMs(cell, BASE_MS + 20_000), 0);
    b.setCooldownUntil(cell, BASE_MS + 15_001);
    assert.equal(b.cooldownUntilMs(cell), BASE_MS + 15_100);
    b.setCooldownUntil(cell, BASE_MS - 60_001);
    assert.equal(b.cooldownUntilMs(cell), BASE_MS - 60_000, 'before the base works too');
    b.clearCooldown(cell);
    assert.equal(b.cooldownUntilMs(cell), 0);
    b.setCooldownUntil(cell, BASE_MS + 5);
    b.setCooldownUntil(cell, 0);
    assert.equal(b.cooldownUntilMs(cell), 0, '0 clears');
  });

  it('extend keeps the later deadline', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    assert.equal(b.extendCooldownUntil(cell, BASE_MS + 2_000), BASE_MS + 2_000);
    assert.equal(b.extendCooldownUntil(cell, BASE_MS + 1_000), BASE_MS + 2_000);
    assert.equal(b.extendCooldownUntil(cell, BASE_MS + 30 * 60_000), BASE_MS + 30 * 60_000);
    assert.equal(b.cooldownUntilMs(cell), BASE_MS + 30 * 60_000);
  });

  it("is seen by another thread's state and a deadline ~6.8 years away is refused", () => {
    const { main, cell } = setup();
    main.breakers.setCooldownUntil(cell, BASE_MS + 120_000);
    const w = SharedState.attach(main.buffers(), 2);
    assert.equal(w.timeBaseMs, BASE_MS);
    assert.equal(w.breakers.cooldownUntilMs(cell), BASE_MS + 120_000);
    assert.throws(() => main.breakers.setCooldownUntil(cell, BASE_MS + 2 ** 31 * 100), RangeError);
    assert.throws(() => main.breakers.setCooldownUntil(cell, BASE_MS - 2 ** 31 * 100), RangeError);
    assert.equal(w.breakers.cooldownUntilMs(cell), BASE_MS + 120_000, 'a refused write changes nothing');
  });
});

describe('error window', () => {
  const out = new ErrorWindowCounts();

  it('sums ok and err over the last N seconds', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    b.errorWindowAdd(cell, true, T0);
    b.errorWindowAdd(cell, false, T0);
    b.errorWindowAdd(cell, false, T0 + 1);
    b.errorWindowAdd(cell, true, T0 + 5);
    b.readErrorWindow(cell, T0 + 5, 6, out);
    assert.deepEqual({ ...out }, { ok: 2, err: 2 });
    b.readErrorWindow(cell, T0 + 5, 5, out);
    assert.deepEqual({ ...out }, { ok: 1, err: 1 });
    b.readErrorWindow(cell, T0 + 5, 1, out);
    assert.deepEqual({ ...out }, { ok: 1, err: 0 });
  });

  it('a ring position reused a lap later starts from zero', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    b.errorWindowAdd(cell, false, T0);
    b.errorWindowAdd(cell, false, T0);
    b.errorWindowAdd(cell, false, T0 + ERROR_WINDOW_SLOTS);
    b.readErrorWindow(cell, T0 + ERROR_WINDOW_SLOTS, ERROR_WINDOW_SLOTS, out);
    assert.deepEqual({ ...out }, { ok: 0, err: 1 });
  });

  it('an idle ring reads empty even where an old tag would alias', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    b.errorWindowAdd(cell, false, T0);
    const aliasSec = T0 + 65_536 * ERROR_WINDOW_SLOTS;
    b.readErrorWindow(cell, aliasSec, 10, out);
    assert.deepEqual({ ...out }, { ok: 0, err: 0 });
    b.readErrorWindow(cell, T0 + ERROR_WINDOW_SLOTS + 3, ERROR_WINDOW_SLOTS, out);
    assert.deepEqual({ ...out }, { ok: 0, err: 0 });
  });

  it('drops an outcome older than the ring', () => {
    const { main, cell } = setup();
    const b = main.breakers;
    b.errorWindowAdd(cell, true, T0 + 500);
    b.errorWindowAdd(cell, false, T0 + 500 - ERROR_WINDOW_SLOTS);
    b.readErrorWindow(cell, T0 + 500, ERROR_WINDOW_SLOTS, out);
    assert.deepEqual({ ...out }, { ok: 1, err: 0 });
  });

  it('saturates a second at 65535', () => {
    const { main, cell } = setup();
    for (let i = 0; i < 65_540; i++) main.breakers.errorWindowAdd(cell, false, T0);
    main.breakers.readErrorWindow(cell, T0, 1, out);
    assert.equal(out.err, 65_535);
  });

  it('clears', () => {
    const { main, cell } = setup();
    main.breakers.errorWindowAdd(cell, false, T0);
    main.breakers.clearErrorWindow(cell);
    main.breakers.readErrorWindow(cell, T0, 10, out);
    assert.deepEqual({ ...out }, { ok: 0, err: 0 });
  });

  it('rejects a window longer than the ring or a non-integer second', () => {
    const { main, cell } = setup();
    assert.throws(() => main.breakers.readErrorWindow(cell, T0, ERROR_WINDOW_SLOTS + 1, out), RangeError);
    assert.throws(() => main.breakers.readErrorWindow(cell, T0, 0, out), RangeError);
    assert.throws(() => main.breakers.errorWindowAdd(cell, true, T0 + 0.5), RangeError);
  });

  it('cells are independent', () => {
    const { main, registry, cell } = setup();
    const other = registry.cellSlot('q', 'gpt');
    main.breakers.errorWindowAdd(cell, false, T0);
    main.breakers.incrementStreak(cell);
    main.breakers.readErrorWindow(other, T0, 1, out);
    assert.deepEqual({ ...out }, { ok: 0, err: 0 });
    assert.equal(main.breakers.streak(other), 0);
  });
});
