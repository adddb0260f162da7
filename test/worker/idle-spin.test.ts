// The worker's idle spin: it polls after events that come close together, stops once the
// window passes without one, and never spins for events far apart or when turned off; the time
// it polled with nothing to do is kept, and the busy ratio leaves it out. Time is the test's
// own clock: the spin's polls run on the real event loop (setImmediate turns), but how much time
// passes between them is what the test says, so a loaded machine changes nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { busyRatio } from '../../src/shared/metrics/runtime-sampler.js';
import { IdleSpin } from '../../src/worker/loop/idle-spin.js';

class ManualClock {
  ms = 1_000;
  readonly read = (): number => this.ms;
}

/** Events back to back at the clock's present: every gap is shorter than any window. */
function burst(spin: IdleSpin, events: number): void {
  for (let i = 0; i < events; i++) spin.event();
}

/** Lets `n` event-loop turns run (the spin polls once a turn while it spins). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((done) => setImmediate(done));
}

describe('IdleSpin', () => {
  it('spins after events that come close together, and stops when the window passes', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(1000);
    burst(spin, 20);
    assert.equal(spin.active, true);
    clock.ms += 2; // past the 1 ms window: the next poll finds it over
    await turns(2);
    assert.equal(spin.active, false);
  });

  it('keeps polling while events come within the window', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(1000);
    burst(spin, 20);
    for (let turn = 1; turn <= 200; turn++) {
      clock.ms += 0.01; // a poll every 10 µs
      if (turn % 10 === 0) spin.event(); // an event now and then, well inside the window
      await turns(1);
      assert.equal(spin.active, true, `turn ${turn}`);
    }
    assert.equal(spin.heldOffStops, 0);
    spin.configure(0); // ends the spin at its next poll
    await turns(2);
    assert.equal(spin.active, false);
  });

  it('does not spin for events far apart', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(50);
    for (let i = 0; i < 12; i++) {
      spin.event();
      assert.equal(spin.active, false);
      clock.ms += 2; // 2 ms: forty windows
      await turns(1);
    }
  });

  it('stops spinning when events spread out again', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(50);
    burst(spin, 20);
    assert.equal(spin.active, true);
    // Six far-apart events bring the tracked gap back over the window.
    for (let i = 0; i < 6; i++) {
      clock.ms += 2;
      await turns(1);
      spin.event();
    }
    clock.ms += 2;
    await turns(2);
    assert.equal(spin.active, false);
    spin.event();
    assert.equal(spin.active, false);
  });

  it('stops, and leaves the core for a while, when a poll finds the thread was held elsewhere', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(50_000); // a 50 ms window
    burst(spin, 20);
    await turns(1);
    assert.equal(spin.active, true);
    clock.ms += 60; // a turn held for 60 ms with no event (another thread had the core)
    await turns(1);
    assert.equal(spin.active, false);
    assert.equal(spin.heldOffStops, 1);
    burst(spin, 5); // close events, but within the 10 ms it yields: no spin
    assert.equal(spin.active, false);
    clock.ms += 15;
    burst(spin, 5);
    assert.equal(spin.active, true);
    spin.configure(0); // ends the spin at its next poll
    await turns(2);
    assert.equal(spin.active, false);
  });

  it('never spins when turned off', () => {
    const spin = new IdleSpin(new ManualClock().read);
    spin.configure(0);
    burst(spin, 50);
    assert.equal(spin.active, false);
    assert.equal(spin.spinMs, 0);
  });

  it('keeps the time it polled with nothing to do, which the busy ratio leaves out', async () => {
    const clock = new ManualClock();
    const spin = new IdleSpin(clock.read);
    spin.configure(20_000); // a 20 ms window
    burst(spin, 20);
    assert.equal(spin.active, true);
    await turns(1); // the first poll: the spin's clock starts
    const before = spin.spinMs;
    for (let i = 0; i < 8; i++) {
      clock.ms += 0.5; // half a ms between two polls (less than a held-off thread's), no event in them
      await turns(1);
    }
    assert.equal(spin.spinMs - before, 4, 'every ms polled with nothing to do is kept');
    spin.event(); // an event: the gap that holds it was work
    clock.ms += 0.5;
    await turns(1);
    assert.equal(spin.spinMs - before, 4);
    // Utilization counts the polling as activity; the busy ratio does not.
    assert.ok(busyRatio({ active: 20, idle: 80 }, 4) < 0.2);
    spin.configure(0);
    await turns(2);
  });

  it('computes the busy ratio within 0..1', () => {
    assert.equal(busyRatio({ active: 30, idle: 70 }, 0), 0.3);
    assert.equal(busyRatio({ active: 90, idle: 10 }, 60), 0.3);
    assert.equal(busyRatio({ active: 10, idle: 0 }, 20), 0, 'never below 0');
    assert.equal(busyRatio({ active: 0, idle: 0 }, 0), 0);
  });
});
