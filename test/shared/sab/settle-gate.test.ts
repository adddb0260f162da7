// The settle gate across real worker threads: at every cut main takes, what its snapshot saw
// (a shared counter) equals the settles tallied under the epochs the cut closed, exactly; no
// settle is half in and half out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { SharedState, SlotRegistry, workerHolder } from '../../../src/shared/sab/index.js';
import type { SettleTask } from './fixtures/settle-hammer.js';

const FIXTURE = new URL('./fixtures/settle-hammer.js', import.meta.url);
const WORKERS = 2;
const CUTS = 100;

describe('settle gate', () => {
  it('every cut snapshots exactly the settles of the epochs it closed', async () => {
    const main = SharedState.create({ holders: WORKERS + 1 });
    const registry = new SlotRegistry(main);
    registry.reservationJournals(4);
    const counter = registry.metricSeries('settles', { kind: 'counter' });
    const tallies = new SharedArrayBuffer(4 * (CUTS + 2));
    const stop = new SharedArrayBuffer(4);
    const workers = Array.from(
      { length: WORKERS },
      (_, w) => new Worker(FIXTURE, { workerData: { buffers: main.buffers(), holderId: workerHolder(w), counter, tallies, stop } satisfies SettleTask }),
    );
    const reports = workers.map((w) => once(w, 'message').then(([m]) => m as { settled: number; deferred: number }));
    const exits = workers.map((w) => once(w, 'exit'));
    const tally = new Int32Array(tallies);
    // Every worker settling before the first cut.
    while (main.metrics.counterValue(counter) < 500) await new Promise((r) => setTimeout(r, 5));
    let cuts = 0;
    let gaveUp = 0;
    while (cuts < CUTS) {
      let seen = -1;
      const closed = main.settleGate.cut(100, () => {
        seen = main.metrics.counterValue(counter);
      });
      if (closed < 0) {
        gaveUp++;
        continue;
      }
      let sum = 0;
      for (let e = 0; e <= closed; e++) sum += Atomics.load(tally, e);
      assert.equal(seen, sum, `cut ${closed}: the snapshot saw ${seen}, epochs up to it tallied ${sum}`);
      cuts++;
      await new Promise((r) => setTimeout(r, 1));
    }
    Atomics.store(new Int32Array(stop), 0, 1);
    const done = await Promise.all(reports);
    await Promise.all(exits);
    const settled = done.reduce((n, r) => n + r.settled, 0);
    assert.equal(main.metrics.counterValue(counter), settled);
    assert.ok(settled > CUTS, `settles ran between the cuts (${settled})`);
    assert.ok(gaveUp < CUTS, `cuts mostly succeeded (${gaveUp} gave up)`);
  });
});
