// After I/O the worker polls for its next event for a short while before its thread may sleep.
//
// A sleeping thread is woken by the kernel when a socket becomes readable; on a virtual machine
// whose idle cores halt, that wake-up is a halt exit and an interrupt through the hypervisor. On
// the bench machines it cost from about 20 µs to well over 100 µs of CPU, with cold caches after
// it, and its delay falls on the request: a request on a quiet gateway pays two (its arrival, the
// upstream's answer), which can weigh more than the request's own work. The spin spends idle CPU
// to take those wake-ups off the request's path.
//
// The spin is a chain of setImmediate callbacks: while one is pending, libuv polls with a zero
// timeout, so events are handled the moment they come and the thread never blocks. It tracks about
// the 90th percentile of the gaps between recent events (a step up on a longer gap, nine times smaller
// steps down on a shorter one) and spins only while that percentile is within the configured
// window; a spin polls until a window has passed with no event. So a gateway near its callers and
// upstreams, or under load, spins, while one in front of a remote provider (answers after hundreds
// of ms, stream chunks tens of ms apart) and a quiet one sleep at once, as before. The window (1 ms
// by default) is wide enough for a round trip to a nearby peer on a slow machine as well as a fast
// one; a gap that ended in a wake-up holds the wake-up too, so a sleeping worker sees gaps a little
// longer than a spinning one, and the window leaves room for that. Under load the loop never idles,
// and the chain costs one callback per turn. A poll that finds the thread was off its core for over
// a millisecond with nothing done in between (a busy process sharing the core) stops the spin and
// starts none for 10 ms, so that it does not keep competing for a core others need.
// It is opt-in (`advanced.idle_spin_us`, default 0): a spinning core reads up to 98% busy where
// the work needs about half that, and an operator who scales on CPU would scale for nothing
// (docs/decisions/300-idle-spin-opt-in.md, 173-idle-spin.md and 182-idle-spin-at-1ms.md). The
// time it spends polling with nothing to do is kept (spinMs), so the thread's busy ratio
// (gateway_thread_busy_ratio) can leave it out.
import { performance } from 'node:perf_hooks';
import { countSpinTime } from '../../shared/metrics/runtime-sampler.js';

/** The percentile tracker's step down on a shorter gap; a longer one steps up nine times as far. */
const STEP_DOWN = 1 / 32;
const STEP_UP = 9 * STEP_DOWN;
/** The tracked gap stays within [window / FLOOR_DIVISOR, window * 4]: a long quiet spell or a
 * burst of back-to-back events moves it a bounded number of steps from where it decides. */
const FLOOR_DIVISOR = 64;
/** A wait between two polls longer than this, with no event in it: the thread was off its core. */
const HELD_OFF_MS = 1;
/** After a spin found the thread had been off its core, no spin for this long. */
const YIELD_MS = 10;

const performanceNow = (): number => performance.now();

export class IdleSpin {
  /** The configured window, in ms (0: off). */
  private windowMs = 0;
  /** The 90th percentile of recent gaps between events, as tracked. */
  private gapMs = 0;
  private lastEventMs = 0;
  private lastPollMs = 0;
  /** An event came since the last poll (the turn between them did work). */
  private eventSincePoll = false;
  /** No spin starts before this (the core was wanted by another thread). */
  private yieldUntilMs = 0;
  private spinning = false;
  /** How many spins stopped because the thread had been held off its core (read by tests). */
  heldOffStops = 0;
  /** Ms spent between two polls with no event between them: polling that did no work. */
  spinMs = 0;
  private readonly tick = (): void => this.poll();

  /** `clockMs`: monotonic ms (injected by tests, which then decide how much time passes). */
  constructor(private readonly clockMs: () => number = performanceNow) {}

  /** The window in µs; 0 turns spinning off. */
  configure(windowUs: number): void {
    this.windowMs = windowUs / 1000;
    this.gapMs = this.windowMs; // undecided: the next shorter gap starts a spin
  }

  /** An event: a request read whole, or answers sent; `nowMs` when the caller has a reading. */
  event(nowMs?: number): void {
    const windowMs = this.windowMs;
    if (windowMs === 0) return;
    if (nowMs === undefined) nowMs = this.clockMs();
    let gapMs = this.gapMs;
    if (nowMs - this.lastEventMs > gapMs) gapMs = Math.min(gapMs * (1 + STEP_UP), windowMs * 4);
    else gapMs = Math.max(gapMs * (1 - STEP_DOWN), windowMs / FLOOR_DIVISOR);
    this.gapMs = gapMs;
    this.lastEventMs = nowMs;
    this.eventSincePoll = true;
    if (!this.spinning && gapMs <= windowMs && nowMs >= this.yieldUntilMs) {
      this.spinning = true;
      this.lastPollMs = nowMs;
      setImmediate(this.tick);
    }
  }

  /** Whether a spin is under way (for tests). */
  get active(): boolean {
    return this.spinning;
  }

  private poll(): void {
    const nowMs = this.clockMs();
    // A poll is a microsecond or two after the one before. Over a millisecond, with no event
    // between them, and the thread was off its core for a scheduler slice: a busy thread shares
    // the core, and a spin would only keep taking it from that thread. Leave the core for a while.
    // (Shorter holds, the main thread's or V8's helpers' brief turns, do not count.)
    // A gap with no event in it was only polling (or the thread off its core): not work.
    if (!this.eventSincePoll) this.spinMs += nowMs - this.lastPollMs;
    if (!this.eventSincePoll && nowMs - this.lastPollMs > HELD_OFF_MS) {
      this.spinning = false;
      this.yieldUntilMs = nowMs + YIELD_MS;
      this.heldOffStops++;
      return;
    }
    this.eventSincePoll = false;
    this.lastPollMs = nowMs;
    if (nowMs - this.lastEventMs < this.windowMs) setImmediate(this.tick);
    else this.spinning = false;
  }
}

/** This worker thread's spin (the ingress reports events; config apply sets the window). */
export const idleSpin = new IdleSpin();
countSpinTime(() => idleSpin.spinMs);
