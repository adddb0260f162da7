// The worker's idle spin: it polls after events that come close together, stops once the
// window passes without one, and never spins for events far apart or when turned off.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
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
  });
});
