// Upstream attempt timeouts, kept by one sweep per worker instead of by undici. undici arms a
// timer per request for the response head (headersTimeout) and another for body idleness
// (bodyTimeout), and its timer objects stay about a second in its timer list: long enough to be
// promoted, so at scenario 1's rate they fed the old generation and its mark-compacts (4-6 per
// 10 s, a quarter second of pause). Here an attempt is a node of an intrusive list (nothing
// allocated per request), body progress writes one number, and a sweep every SWEEP_MS aborts
// what ran over:
// - the head not there by the attempt's deadline (counted from dispatch: the attempt timeout
//   covers the wait for a connection too), aborted as undici's headers timeout is;
// - the body idle for the body timeout, not counted while reading is paused for backpressure
//   (as undici does not), aborted as undici's body timeout is.
// A timeout fires at most about two sweeps late, never early; attempt timeouts are whole
// seconds. The sweep stops when nothing has been watched for a while, so an idle worker sleeps.
import { performance } from 'node:perf_hooks';

/** What the sweep needs of an attempt (the Exchange is one). */
export interface TimedAttempt {
  timerPrev: TimedAttempt | null;
  timerNext: TimedAttempt | null;
  timerListed: boolean;
  /** performance.now() by which the response head must arrive; 0 once it has. */
  headDeadlineMs: number;
  /** Body idle timeout in ms (0: none). */
  bodyTimeoutMs: number;
  /** The sweep count at the last body progress (or at the head). */
  bodyTick: number;
  /** True while the attempt has sent its request and can be aborted (undici's controller). */
  upstreamAbortable(): boolean;
  /** Reading the body is paused for backpressure. */
  upstreamPaused(): boolean;
  /** Abort the attempt with `reason` (undici's controller.abort). */
  abortUpstream(reason: Error): void;
}

/** The list node of a TimedAttempt, for the class that owns the attempt to extend; the three methods are its own. */
export abstract class TimedAttemptNode implements TimedAttempt {
  timerPrev: TimedAttempt | null = null;
  timerNext: TimedAttempt | null = null;
  timerListed = false;
  headDeadlineMs = 0;
  bodyTimeoutMs = 0;
  bodyTick = 0;
  abstract upstreamAbortable(): boolean;
  abstract upstreamPaused(): boolean;
  abstract abortUpstream(reason: Error): void;
}

/** An Error with undici's code, so the attempt is classified as undici's own timeout would be. */
class UpstreamTimeoutError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'UpstreamTimeoutError';
  }
}

/** One reason object each (no Error made per timeout). */
export const HEAD_TIMEOUT: Error = new UpstreamTimeoutError('the upstream response head did not arrive in time', 'UND_ERR_HEADERS_TIMEOUT');
export const BODY_TIMEOUT: Error = new UpstreamTimeoutError('the upstream response body was idle too long', 'UND_ERR_BODY_TIMEOUT');

const SWEEP_MS = 100;
/** Sweeps with nothing watched before the interval is stopped. */
const IDLE_SWEEPS = 50;

export class AttemptTimers {
  private first: TimedAttempt | null = null;
  private timer: NodeJS.Timeout | null = null;
  private idleSweeps = 0;
  /** Sweeps made so far: the clock of body idleness. */
  tick = 0;

  constructor(private readonly sweepMs = SWEEP_MS) {}

  /** An attempt was dispatched: its head is due by `deadlineMs`, then its body may idle `bodyTimeoutMs`. */
  start(a: TimedAttempt, deadlineMs: number, bodyTimeoutMs: number): void {
    a.headDeadlineMs = deadlineMs;
    a.bodyTimeoutMs = bodyTimeoutMs;
    a.bodyTick = this.tick;
    if (!a.timerListed) {
      a.timerListed = true;
      a.timerPrev = null;
      a.timerNext = this.first;
      if (this.first !== null) this.first.timerPrev = a;
      this.first = a;
    }
    if (this.timer === null) {
      this.timer = setInterval(() => this.sweep(performance.now()), this.sweepMs);
      this.timer.unref();
    }
    this.idleSweeps = 0;
  }

  /** The head came: from now on only body idleness counts. */
  headArrived(a: TimedAttempt): void {
    a.headDeadlineMs = 0;
    a.bodyTick = this.tick;
  }

  /** The attempt is over (answered, failed, aborted): no timeout applies any more. */
  stop(a: TimedAttempt): void {
    if (!a.timerListed) return;
    a.timerListed = false;
    const prev = a.timerPrev;
    const next = a.timerNext;
    if (prev !== null) prev.timerNext = next;
    else this.first = next;
    if (next !== null) next.timerPrev = prev;
    a.timerPrev = null;
    a.timerNext = null;
  }

  /** One sweep at `nowMs` (performance.now()); exported for tests. */
  sweep(nowMs: number): void {
    const tick = ++this.tick;
    if (this.first === null) {
      if (++this.idleSweeps >= IDLE_SWEEPS && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
      return;
    }
    let a: TimedAttempt | null = this.first;
    while (a !== null) {
      // Read before an abort: its callbacks may stop this attempt (and start its next one).
      const next: TimedAttempt | null = a.timerNext;
      if (a.headDeadlineMs !== 0) {
        if (nowMs >= a.headDeadlineMs && a.upstreamAbortable()) a.abortUpstream(HEAD_TIMEOUT);
      } else if (a.bodyTimeoutMs !== 0) {
        if (a.upstreamPaused()) a.bodyTick = tick;
        // Ticks come no faster than sweepMs apart, so this under-counts the idle time: never early.
        else if ((tick - a.bodyTick - 1) * this.sweepMs >= a.bodyTimeoutMs) a.abortUpstream(BODY_TIMEOUT);
      }
      a = next;
    }
  }

  /** How many attempts are watched (tests). */
  get watched(): number {
    let n = 0;
    for (let a = this.first; a !== null; a = a.timerNext) n++;
    return n;
  }

  /** Stop the interval (tests; a worker's is unref'd and ends with it). */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
