// The lane circuit breaker's transitions (the spec's state table), as pure decisions over the
// shared cells in src/shared/sab/breaker-cells.ts. Time and jitter come in from outside (a
// clock and a random source), so every row is tested with an injected clock. docs/routing.md
// maps each row of the table to the method here that implements it.
//
// Who may move a cell: only attempt outcomes that are the upstream's fault (see
// src/shared/routing/attempt-outcome.ts). A caller abort, an untranslatable request, a missing
// upstream credential and a relayed 4xx never reach recordFailure.
import type { CompiledBreaker } from '../config/compiled.js';
import { ErrorWindowCounts, type BreakerCells } from '../sab/breaker-cells.js';
import { BREAKER_CLOSED, BREAKER_HALF_OPEN, BREAKER_OPEN, CELL_HARD_DOWN_NONE } from '../sab/layout.js';

/** Closed, one failure, no trip: the lane is skipped this long (unless Retry-After says more). */
export const SHORT_COOLDOWN_MS = 1_000;
/** Hard-down (billing/quota or auth): sticky, not escalated, not shortened. */
export const HARD_DOWN_COOLDOWN_MS = 30 * 60_000;
/** Trip cooldowns are jittered by +/- this fraction so that lanes do not recover in lockstep. */
const COOLDOWN_JITTER = 0.1;

/** The breaker settings the spec gives as defaults (the lane-default cell of direct routes uses them). */
export const DEFAULT_BREAKER: Readonly<CompiledBreaker> = Object.freeze({
  trip: 'consecutive',
  consecutiveN: 3,
  threshold: 0.5,
  windowSecs: 60,
  minRequests: 5,
  baseCooldownSecs: 15,
  maxCooldownSecs: 120,
});

/** What one recorded outcome did to the cell (callers count trips from it). */
export const enum BreakerEffect {
  None = 0,
  /** Closed, failure below the trip condition: a short cooldown was armed. */
  ShortCooldown = 1,
  /** Closed -> Open, won by this caller: one trip counted. */
  Tripped = 2,
  /** HalfOpen probe failed: Open again with an escalated cooldown (not a new trip). */
  Reopened = 3,
  /** HalfOpen probe succeeded: Closed, streak and window cleared. */
  Closed = 4,
}

const SEC_MS = 1_000;

export class BreakerPolicy {
  private readonly window = new ErrorWindowCounts();

  constructor(
    private readonly cells: BreakerCells,
    /** Epoch ms now. */
    private readonly nowMs: () => number,
    /** Uniform in [0, 1). */
    private readonly random: () => number,
  ) {}

  /**
   * The cooldown of open number `opens` since the last close: base doubling per open up to
   * max, jittered by +/- 10%; an upstream Retry-After is a floor even above the max.
   */
  tripCooldownMs(breaker: CompiledBreaker, opens: number, retryAfterMs: number): number {
    const stepSecs = Math.min(breaker.maxCooldownSecs, breaker.baseCooldownSecs * 2 ** Math.max(0, opens - 1));
    const jitter = 1 + (2 * this.random() - 1) * COOLDOWN_JITTER;
    const cooldownMs = Math.round(stepSecs * SEC_MS * jitter);
    return Math.max(retryAfterMs, cooldownMs);
  }

  /**
   * Open -> HalfOpen once the cooldown is over, then claim the single-flight probe (CAS: one
   * winner across every worker). True when this caller holds the probe and may dispatch.
   */
  tryBeginProbe(cell: number): boolean {
    const cells = this.cells;
    const state = cells.state(cell);
    if (state === BREAKER_CLOSED) return false;
    if (state === BREAKER_OPEN) {
      if (cells.cooldownRemainingMs(cell, this.nowMs()) > 0) return false;
      cells.casState(cell, BREAKER_OPEN, BREAKER_HALF_OPEN); // losing is fine: someone else moved it
      if (cells.state(cell) !== BREAKER_HALF_OPEN) return false;
    }
    return cells.tryClaimProbe(cell);
  }

  /** An attempt succeeded. `probe`: it held the cell's HalfOpen probe. */
  recordSuccess(cell: number, probe: boolean): BreakerEffect {
    const cells = this.cells;
    cells.errorWindowAdd(cell, true, Math.floor(this.nowMs() / SEC_MS));
    cells.resetStreak(cell);
    if (!probe) return BreakerEffect.None;
    const closed = this.close(cell, BREAKER_HALF_OPEN);
    cells.releaseProbe(cell);
    return closed ? BreakerEffect.Closed : BreakerEffect.None;
  }

  /**
   * An upstream fault (transient, timeout, connect, context-length excluded). `retryAfterMs`:
   * the upstream's Retry-After, 0 when none.
   */
  recordFailure(cell: number, breaker: CompiledBreaker, retryAfterMs: number, probe: boolean): BreakerEffect {
    const cells = this.cells;
    const nowMs = this.nowMs();
    const nowSec = Math.floor(nowMs / SEC_MS);
    cells.errorWindowAdd(cell, false, nowSec);
    const streak = cells.incrementStreak(cell);
    let effect = BreakerEffect.None;
    const state = cells.state(cell);
    if (probe && state === BREAKER_HALF_OPEN) {
      // Probe failed: open again, one step further up the cooldown ladder. Not a new trip.
      cells.setCooldownUntil(cell, nowMs + this.tripCooldownMs(breaker, cells.openStreak(cell) + 1, retryAfterMs));
      if (cells.casState(cell, BREAKER_HALF_OPEN, BREAKER_OPEN)) {
        cells.incrementOpenStreak(cell);
        effect = BreakerEffect.Reopened;
      }
    } else if (state === BREAKER_CLOSED) {
      if (this.tripConditionMet(cell, breaker, streak, nowSec)) {
        // Publish the cooldown before the state word (see breaker-cells.ts).
        cells.extendCooldownUntil(cell, nowMs + this.tripCooldownMs(breaker, cells.openStreak(cell) + 1, retryAfterMs));
        if (cells.casState(cell, BREAKER_CLOSED, BREAKER_OPEN)) {
          cells.incrementOpenStreak(cell);
          cells.incrementTripCount(cell);
          cells.setLastTripSec(cell, nowSec);
          effect = BreakerEffect.Tripped;
        }
      } else {
        cells.extendCooldownUntil(cell, nowMs + Math.max(SHORT_COOLDOWN_MS, retryAfterMs));
        effect = BreakerEffect.ShortCooldown;
      }
    } else if (retryAfterMs > 0) {
      // Already open (a late outcome of an attempt sent before the trip): honour Retry-After.
      cells.extendCooldownUntil(cell, nowMs + retryAfterMs);
    }
    if (probe) cells.releaseProbe(cell);
    return effect;
  }

  /**
   * Billing/quota or auth hard-down: Open at once with the sticky 30-minute cooldown, whatever
   * the state. From Closed it counts as a trip.
   */
  recordHardDown(cell: number, reason: number, probe: boolean): BreakerEffect {
    const cells = this.cells;
    const nowMs = this.nowMs();
    const nowSec = Math.floor(nowMs / SEC_MS);
    cells.errorWindowAdd(cell, false, nowSec);
    cells.incrementStreak(cell);
    cells.setHardDown(cell, reason);
    cells.setCooldownUntil(cell, nowMs + HARD_DOWN_COOLDOWN_MS);
    let effect = BreakerEffect.None;
    if (cells.casState(cell, BREAKER_CLOSED, BREAKER_OPEN)) {
      cells.incrementOpenStreak(cell);
      cells.incrementTripCount(cell);
      cells.setLastTripSec(cell, nowSec);
      effect = BreakerEffect.Tripped;
    } else if (cells.casState(cell, BREAKER_HALF_OPEN, BREAKER_OPEN)) {
      cells.incrementOpenStreak(cell);
      effect = BreakerEffect.Reopened;
    }
    if (probe) cells.releaseProbe(cell);
    return effect;
  }

  /** An outcome that is nobody's fault on the lane's side: only a held probe is given back. */
  recordNeutral(cell: number, probe: boolean): void {
    if (probe) this.cells.releaseProbe(cell);
  }

  /** A successful active health probe: every cell of the lane closes, whatever its state. */
  closeByHealthProbe(cellsOfLane: readonly number[]): void {
    for (const cell of cellsOfLane) {
      if (!this.close(cell, BREAKER_OPEN)) this.close(cell, BREAKER_HALF_OPEN);
      // A Closed cell may still carry a short cooldown or a streak: the probe clears them too.
      this.cells.clearCooldown(cell);
      this.cells.resetStreak(cell);
    }
  }

  /**
   * The pool's breaker settings changed (a config apply or reload). An Open cell whose trip
   * condition the new settings no longer meet (a raised consecutive_n, a higher threshold...)
   * closes at once: its streak and error window are kept, so failures count on towards the new
   * condition, and its open streak (the cooldown ladder) starts again. A cell that still meets
   * it stays Open with its cooldown (which may carry an upstream Retry-After, a floor); the next
   * cooldown is the new ladder's. HalfOpen (its probe decides) and hard-down cells (billing or
   * auth, not a matter of these settings) are left alone, and a Closed cell is never tripped
   * here: its next failure is judged by the new settings. True when the cell closed.
   */
  followSettings(cell: number, breaker: CompiledBreaker): boolean {
    const cells = this.cells;
    if (cells.state(cell) !== BREAKER_OPEN || cells.hardDown(cell) !== CELL_HARD_DOWN_NONE) return false;
    if (this.tripConditionMet(cell, breaker, cells.streak(cell), Math.floor(this.nowMs() / SEC_MS))) return false;
    // Side fields first, as in close(): a Closed cell never shows the old open's cooldown.
    cells.clearCooldown(cell);
    if (!cells.casState(cell, BREAKER_OPEN, BREAKER_CLOSED)) return false;
    cells.resetOpenStreak(cell);
    return true;
  }

  private tripConditionMet(cell: number, breaker: CompiledBreaker, streak: number, nowSec: number): boolean {
    if (breaker.trip === 'consecutive') return streak >= breaker.consecutiveN;
    const window = this.window;
    this.cells.readErrorWindow(cell, nowSec, breaker.windowSecs, window);
    const total = window.ok + window.err;
    return total >= breaker.minRequests && window.err >= breaker.threshold * total;
  }

  /** `from` -> Closed; side fields are cleared first so a Closed cell never shows an old open's cooldown. */
  private close(cell: number, from: number): boolean {
    const cells = this.cells;
    if (cells.state(cell) !== from) return false;
    cells.clearCooldown(cell);
    if (!cells.casState(cell, from, BREAKER_CLOSED)) return false;
    cells.resetStreak(cell);
    cells.resetOpenStreak(cell);
    cells.setHardDown(cell, CELL_HARD_DOWN_NONE);
    cells.clearErrorWindow(cell);
    return true;
  }
}
