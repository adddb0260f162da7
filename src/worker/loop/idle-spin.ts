// After I/O the worker polls for its next event for a short while before its thread may sleep.
//
// A sleeping thread is woken by the kernel when a socket becomes readable; on a virtual machine
// whose idle cores halt, that wake-up is a halt exit and an interrupt through the hypervisor. On
// the bench machines it cost about 20–25 µs of CPU, with cold caches after it, and its delay
// falls on the request: a request on a quiet gateway pays two (its arrival, the upstream's
// answer), which weighed more than the request's own work. The window (100 µs by default) is
// longer than one wake-up costs, so that a round trip to a nearby peer (30–60 µs there) falls
// inside it: the spin spends idle CPU to take the wake-ups off the request's path.
//
// The spin is a chain of setImmediate callbacks: while one is pending, libuv polls with a zero
// timeout, so events are handled the moment they come and the thread never blocks. It spins only
// while the recent gaps between events were mostly close: under twice the window, because a gap
// that ended in a wake-up holds the wake-up too (counted against the window alone, a worker that
// slept would see long gaps and keep sleeping; one that spun, short ones, and keep spinning). A
// gateway in front of a remote provider (answers after hundreds of ms, stream chunks tens of ms
// apart) and a quiet one sleep at once, as before. Under load the loop never idles, and the
// chain costs one callback per turn. A poll that finds the thread was off its core for over a
// millisecond with nothing done in between (a busy process sharing the core) stops the spin and
// starts none for 10 ms, so that it does not keep competing for a core others need.
// `advanced.idle_spin_us: 0` turns it off; under a CPU quota (a container limit) it is off by
// default, so that polling never uses the quota requests need (docs/decisions.md, "Idle spin").
import { performance } from 'node:perf_hooks';

/** The share of close gaps (in 1/256ths) from which the worker spins. */
const SPIN_WHEN_CLOSE = 128;
/** A wait between two polls longer than this, with no event in it: the thread was off its core. */
const HELD_OFF_MS = 1;
/** After a spin found the thread had been off its core, no spin for this long. */
const YIELD_MS = 10;

export class IdleSpin {
  private windowMs = 0;
  /** Gaps under this count as close (twice the window). */
  private closeMs = 0;
  private lastEventMs = 0;
  private lastPollMs = 0;
  /** An event came since the last poll (the turn between them did work). */
  private eventSincePoll = false;
  /** No spin starts before this (the core was wanted by another thread). */
  private yieldUntilMs = 0;
  private spinning = false;
  /** A running average of "the gap before this event was close", in 1/256ths. */
  private closeGaps = 0;
  /** How many spins stopped because the thread had been held off its core (read by tests). */
  heldOffStops = 0;
  private readonly tick = (): void => this.poll();

  /** The window in µs; 0 turns spinning off. */
  configure(windowUs: number): void {
    this.windowMs = windowUs / 1000;
    this.closeMs = (2 * windowUs) / 1000;
  }

  /** An event: a request read whole, or answers sent; `nowMs` when the caller has a reading. */
  event(nowMs?: number): void {
    if (this.windowMs === 0) return;
    if (nowMs === undefined) nowMs = performance.now();
    const close = nowMs - this.lastEventMs < this.closeMs ? 256 : 0;
    this.lastEventMs = nowMs;
    this.closeGaps += (close - this.closeGaps) >> 3; // weight 1/8: about the last dozen gaps
    this.eventSincePoll = true;
    if (!this.spinning && this.closeGaps >= SPIN_WHEN_CLOSE && nowMs >= this.yieldUntilMs) {
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
    const nowMs = performance.now();
    // A poll is a microsecond or two after the one before. Over a millisecond, with no event
    // between them, and the thread was off its core for a scheduler slice: a busy thread shares
    // the core, and a spin would only keep taking it from that thread. Leave the core for a while.
    // (Shorter holds, the main thread's or V8's helpers' brief turns, do not count.)
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
