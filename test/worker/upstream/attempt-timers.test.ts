// The worker's sweep of attempt timeouts: a head past its deadline and a body idle for its
// timeout are aborted with undici's codes; a paused body is not idle; a stopped attempt is left
// alone; a timeout is never early.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptTimers, BODY_TIMEOUT, HEAD_TIMEOUT, type TimedAttempt } from '../../../src/worker/upstream/attempt-timers.js';

class FakeAttempt implements TimedAttempt {
  timerPrev: TimedAttempt | null = null;
  timerNext: TimedAttempt | null = null;
  timerListed = false;
  headDeadlineMs = 0;
  bodyTimeoutMs = 0;
  bodyTick = 0;
  abortable = true;
  paused = false;
  aborts: Error[] = [];
  onAbort: (() => void) | null = null;
  upstreamAbortable(): boolean {
    return this.abortable;
  }
  upstreamPaused(): boolean {
    return this.paused;
  }
  abortUpstream(reason: Error): void {
    this.aborts.push(reason);
    this.onAbort?.();
  }
}

const SWEEP = 100;

test('a head past the attempt deadline is aborted as undici headers timeout, not before', (t) => {
  const timers = new AttemptTimers(SWEEP);
  t.after(() => timers.close());
  const a = new FakeAttempt();
  timers.start(a, 1_000, 60_000);
  timers.sweep(999);
  assert.equal(a.aborts.length, 0);
  timers.sweep(1_000);
  assert.deepEqual(a.aborts, [HEAD_TIMEOUT]);
  assert.equal((HEAD_TIMEOUT as { code?: string }).code, 'UND_ERR_HEADERS_TIMEOUT');
});

test('an attempt still waiting for a connection (no controller) is aborted once it has one', (t) => {
  const timers = new AttemptTimers(SWEEP);
  t.after(() => timers.close());
  const a = new FakeAttempt();
  a.abortable = false;
  timers.start(a, 1_000, 60_000);
  timers.sweep(2_000);
  assert.equal(a.aborts.length, 0);
  a.abortable = true;
  timers.sweep(2_100);
  assert.deepEqual(a.aborts, [HEAD_TIMEOUT]);
});

test('a body idle for its timeout is aborted; progress and pauses keep it alive', (t) => {
  const timers = new AttemptTimers(SWEEP);
  t.after(() => timers.close());
  const a = new FakeAttempt();
  timers.start(a, 1_000, 300);
  timers.headArrived(a);
  // 3 sweeps after the head: at most 300 ms have surely passed only after the 4th.
  for (let i = 1; i <= 3; i++) timers.sweep(1_000 + i * SWEEP);
  assert.equal(a.aborts.length, 0, 'never early');
  a.bodyTick = timers.tick; // a chunk came
  for (let i = 4; i <= 6; i++) timers.sweep(1_000 + i * SWEEP);
  assert.equal(a.aborts.length, 0);
  a.paused = true; // backpressure: the idle clock stops
  for (let i = 7; i <= 20; i++) timers.sweep(1_000 + i * SWEEP);
  assert.equal(a.aborts.length, 0, 'a paused body is not idle');
  a.paused = false;
  for (let i = 21; i <= 24; i++) timers.sweep(1_000 + i * SWEEP);
  assert.deepEqual(a.aborts, [BODY_TIMEOUT]);
  assert.equal((BODY_TIMEOUT as { code?: string }).code, 'UND_ERR_BODY_TIMEOUT');
});

test('stopped attempts are unlinked from anywhere in the list and never aborted', (t) => {
  const timers = new AttemptTimers(SWEEP);
  t.after(() => timers.close());
  const [a, b, c] = [new FakeAttempt(), new FakeAttempt(), new FakeAttempt()];
  for (const x of [a, b, c]) timers.start(x, 1_000, 0);
  assert.equal(timers.watched, 3);
  timers.stop(b);
  timers.stop(b); // twice is harmless
  assert.equal(timers.watched, 2);
  timers.stop(c);
  timers.stop(a);
  assert.equal(timers.watched, 0);
  timers.sweep(5_000);
  assert.deepEqual([a.aborts, b.aborts, c.aborts], [[], [], []]);
});

test('an abort that stops its attempt and starts the next one mid-sweep keeps the list whole', (t) => {
  const timers = new AttemptTimers(SWEEP);
  t.after(() => timers.close());
  const [a, b] = [new FakeAttempt(), new FakeAttempt()];
  timers.start(b, 1_000, 0);
  timers.start(a, 1_000, 0);
  // a fails over: its next attempt starts with a later deadline.
  a.onAbort = () => {
    timers.stop(a);
    timers.start(a, 10_000, 0);
  };
  timers.sweep(1_500);
  assert.equal(a.aborts.length, 1);
  assert.equal(b.aborts.length, 1, 'the sweep went on past the re-started attempt');
  assert.equal(timers.watched, 2);
  timers.sweep(2_000);
  assert.equal(a.aborts.length, 1);
});
