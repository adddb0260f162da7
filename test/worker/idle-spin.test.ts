// The worker's idle spin: it polls after events that come close together, stops once the
// window passes without one, and never spins for events far apart or when turned off; the time
// it polled with nothing to do is kept, and the busy ratio leaves it out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { busyRatio } from '../../src/shared/metrics/runtime-sampler.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdleSpin } from '../../src/worker/loop/idle-spin.js';

/** Events back to back (microseconds apart): every gap is shorter than any window. */
function burst(spin: IdleSpin, events: number): void {
  for (let i = 0; i < events; i++) spin.event();
}

describe('IdleSpin', () => {
  it('spins after events that come close together, and stops when the window passes', async () => {
    const spin = new IdleSpin();
    spin.configure(1000);
    burst(spin, 20);
    assert.equal(spin.active, true);
    await sleep(20); // well past the 1 ms window: the last poll found it over
    assert.equal(spin.active, false);
  });

  it('keeps polling while events come within the window', async () => {
    const spin = new IdleSpin();
    spin.configure(50_000); // 50 ms: longer than a busy machine keeps a thread off its core
    // A run in which the test's thread is held off its core for over a millisecond stops the
    // spin on purpose (the next test shows it): such a run says nothing here, and is run again.
    for (let run = 1; ; run++) {
      const stopsBefore = spin.heldOffStops;
      await sleep(20); // past any yield of the run before
      burst(spin, 20);
      let polls = 0;
      // Each setImmediate turn of ours runs beside one of the spin's: count turns while it spins.
      await new Promise<void>((done) => {
        const turn = (): void => {
          polls++;
          if (polls % 10 === 0) spin.event(); // an event now and then, well inside the window
          if (polls < 200) setImmediate(turn);
          else done();
        };
        setImmediate(turn);
      });
      if (spin.heldOffStops !== stopsBefore && run < 20) continue;
      assert.equal(spin.active, true);
      break;
    }
    spin.configure(0); // ends the spin at its next poll
    await sleep(5);
    assert.equal(spin.active, false);
  });

  it('does not spin for events far apart', async () => {
    const spin = new IdleSpin();
    spin.configure(50);
    for (let i = 0; i < 12; i++) {
      spin.event();
      assert.equal(spin.active, false);
      await sleep(2); // 2 ms: forty windows
    }
  });

  it('stops spinning when events spread out again', async () => {
    const spin = new IdleSpin();
    spin.configure(50);
    burst(spin, 20);
    assert.equal(spin.active, true);
    // Six far-apart events bring the share of short gaps below one half.
    for (let i = 0; i < 6; i++) {
      await sleep(2);
      spin.event();
    }
    await sleep(2);
    assert.equal(spin.active, false);
    spin.event();
    assert.equal(spin.active, false);
  });

  it('stops, and leaves the core for a while, when a poll finds the thread was held elsewhere', async () => {
    const spin = new IdleSpin();
    spin.configure(50_000); // a 50 ms window: however slow the machine, the spin outlasts the first turns
    burst(spin, 20);
    assert.equal(spin.active, true);
    // A turn is held for 60 ms with no event (as when another thread had the core).
    await new Promise<void>((done) => {
      setImmediate(() => {
        const until = performance.now() + 60;
        while (performance.now() < until);
        done();
      });
    });
    await new Promise<void>((done) => setImmediate(done));
    assert.equal(spin.active, false);
    burst(spin, 5); // close events, but within the 10 ms it yields: no spin
    assert.equal(spin.active, false);
    await sleep(15);
    burst(spin, 5);
    assert.equal(spin.active, true);
    spin.configure(0); // ends the spin at its next poll
    await sleep(5);
    assert.equal(spin.active, false);
  });

  it('never spins when turned off', () => {
    const spin = new IdleSpin();
    spin.configure(0);
    burst(spin, 50);
    assert.equal(spin.active, false);
    assert.equal(spin.spinMs, 0);
  });

  it('keeps the time it polled with nothing to do, which the busy ratio leaves out', async () => {
    const spin = new IdleSpin();
    spin.configure(20_000); // a 20 ms window: the loop does nothing but poll for about that long
    // A run held off its core stops the spin early (its held time counts as spin too), so the
    // spin's length is checked only on a run that was not; the ratio on every run.
    for (let run = 1; ; run++) {
      const stopsBefore = spin.heldOffStops;
      await sleep(15);
      const spinBefore = spin.spinMs;
      const before = performance.eventLoopUtilization();
      burst(spin, 20);
      await sleep(40); // the spin polls about 20 ms, then the thread sleeps
      const elu = performance.eventLoopUtilization(before);
      const spunMs = spin.spinMs - spinBefore;
      assert.equal(spin.active, false);
      assert.ok(spunMs > 0, `spun ${spunMs} ms`);
      // Event-loop utilization counts the polling as activity; the busy ratio does not.
      assert.ok(busyRatio(elu, spunMs) < elu.utilization, `busy ${busyRatio(elu, spunMs)} against utilization ${elu.utilization}`);
      if (spin.heldOffStops !== stopsBefore && run < 20) continue;
      if (spin.heldOffStops === stopsBefore) assert.ok(spunMs >= 15, `spun ${spunMs} ms of a 20 ms window`);
      break;
    }
  });

  it('computes the busy ratio within 0..1', () => {
    assert.equal(busyRatio({ active: 30, idle: 70 }, 0), 0.3);
    assert.equal(busyRatio({ active: 90, idle: 10 }, 60), 0.3);
    assert.equal(busyRatio({ active: 10, idle: 0 }, 20), 0, 'never below 0');
    assert.equal(busyRatio({ active: 0, idle: 0 }, 0), 0);
  });
});
