// Real worker threads on the same slots. Kept short: the machine has two cores shared with
// other work, so three workers and a few tens of thousands of iterations each.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  BREAKER_CLOSED,
  COUNTER_VALUE,
  ErrorWindowCounts,
  GOV_REQUESTS,
  GOV_TOKENS,
  SharedState,
  SlotRegistry,
  workerHolder,
} from '../../../src/shared/sab/index.js';
import {
  countOnce,
  readSet,
  type GrowTask,
  type HammerReport,
  type HammerTask,
  type RoundsTask,
  type SlotReading,
  type SlotSet,
} from './fixtures/sab-hammer.js';

const FIXTURE = new URL('./fixtures/sab-hammer.js', import.meta.url);
const WORKERS = 3;

/** The worker's next message; rejects if it fails or exits first. */
function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    const onExit = (code: number): void => reject(new Error(`worker exited with ${code} before answering`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.once('message', (msg: T) => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(msg);
    });
  });
}
const ITERATIONS = 20_000;
const NOW_SEC = 1_700_000_000;

describe('shared state across worker threads', () => {
  it('never exceeds a limit and every count adds up exactly', async () => {
    const main = SharedState.create({ holders: WORKERS + 1 });
    const registry = new SlotRegistry(main);
    const lane = registry.laneSlot('gpt');
    const budgetLane = registry.laneSlot('budgeted');
    const counter = registry.metricSeries('requests', { kind: 'counter' });
    const wideCounter = registry.metricSeries('near-carry', { kind: 'counter' });
    const histogram = registry.metricSeries('duration', { kind: 'histogram', bounds: [1, 2, 4] });
    const probeGauge = registry.metricSeries('probe-owners', { kind: 'gauge' });
    const gov = registry.groupSlot('acme');
    const cell = registry.cellSlot('p', 'gpt');
    // Start the wide counter just under 2^31 so the racing adds must carry.
    const preset = 2 ** 31 - 1_000;
    new Uint32Array(main.buffers().memory)[wideCounter + COUNTER_VALUE] = preset;

    const barrier = new SharedArrayBuffer(8);
    const gate = new Int32Array(barrier);
    const base = {
      mode: 'hammer' as const,
      buffers: main.buffers(),
      barrier,
      iterations: ITERATIONS,
      lane,
      maxConcurrent: 2,
      budgetLane,
      maxRequests: 7_777,
      counter,
      wideCounter,
      histogram,
      probeGauge,
      gov,
      govTag: 7,
      tokenCap: 25_000,
      rollCap: 1_000,
      cell,
      nowSec: NOW_SEC,
    };
    const workers = Array.from({ length: WORKERS }, (_, w) => new Worker(FIXTURE, { workerData: { ...base, holderId: workerHolder(w) } satisfies HammerTask }));
    const exits = workers.map((w) => once(w, 'exit'));
    const reports = workers.map((w) => nextMessage<HammerReport>(w));
    while (Atomics.load(gate, 1) < WORKERS) await new Promise((r) => setTimeout(r, 5));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const results = await Promise.all(reports);
    await Promise.all(exits);

    const sum = (f: (r: HammerReport) => number): number => results.reduce((a, r) => a + f(r), 0);
    const total = WORKERS * ITERATIONS;
    assert.equal(
      sum((r) => r.overLimit),
      0,
      'in-flight never exceeded the limit',
    );
    assert.ok(Math.max(...results.map((r) => r.maxInflightSeen)) <= 2);
    assert.equal(main.lanes.laneInflight(lane), 0, 'every permit came back');
    assert.equal(
      main.lanes.laneOk(lane),
      sum((r) => r.ok),
    );
    assert.equal(
      main.lanes.laneOk(lane) + main.lanes.laneErr(lane),
      sum((r) => r.acquired),
    );
    assert.equal(
      sum((r) => r.lifetimeTaken),
      7_777,
      'the lifetime budget was taken exactly',
    );
    assert.equal(main.lanes.lifetimeTaken(budgetLane), 7_777);
    assert.equal(main.metrics.counterValue(counter), total);
    assert.equal(main.metrics.counterValue(wideCounter), preset + total, 'carry under contention');
    const h = main.metrics.readHistogram(histogram);
    assert.equal(h.count, total);
    assert.equal(main.governance.read(main.governance.groupIndex(gov, 2, GOV_REQUESTS), 7), total);
    assert.equal(
      sum((r) => r.tokenWins),
      25_000,
    );
    assert.equal(main.governance.read(main.governance.groupIndex(gov, 2, GOV_TOKENS), 7), 25_000);
    assert.equal(
      sum((r) => r.rollOver),
      0,
      'no rolling window counted past its cap',
    );
    assert.ok(sum((r) => r.rollWins) <= 3 * 1_000, 'at most the cap in each of the 3 windows');
    assert.equal(main.governance.read(main.governance.groupIndex(gov, 0, GOV_REQUESTS), 202), 1_000, 'the last window filled to its cap exactly');
    assert.equal(
      sum((r) => r.probeOverlaps),
      0,
      'one probe at a time',
    );
    assert.ok(sum((r) => r.probeClaims) > 0);
    assert.equal(main.breakers.probeInFlight(cell), false);
    const window = new ErrorWindowCounts();
    main.breakers.readErrorWindow(cell, NOW_SEC, 1, window);
    assert.equal(window.ok + window.err, total);
    assert.equal(
      sum((r) => r.trips),
      1,
      'one Closed->Open winner',
    );
    assert.equal(main.breakers.tripCount(cell), 1);
    assert.notEqual(main.breakers.state(cell), BREAKER_CLOSED);
    assert.equal(main.faultCount(), 0);
  });

  it('a worker sees growth that happens after the buffer was posted, and main reclaims what it left held', async () => {
    const main = SharedState.create({ holders: 2, initialBytes: 0, maxBytes: 1 << 20 });
    const registry = new SlotRegistry(main);
    registry.laneSlot('before');
    const worker = new Worker(FIXTURE, { workerData: { mode: 'grow', buffers: main.buffers(), holderId: workerHolder(0) } satisfies GrowTask });
    const attached = await nextMessage<{ byteLength: number }>(worker);
    const lengthAtPost = main.byteLength();
    assert.equal(attached.byteLength, lengthAtPost);
    for (let i = 0; i < 20; i++) registry.cellSlot('p', `filler${i}`);
    const lane = registry.laneSlot('after');
    assert.ok(main.byteLength() > lengthAtPost, 'the buffer grew');
    worker.postMessage({ lane });
    const used = await nextMessage<{ took: boolean; byteLength: number }>(worker);
    assert.equal(used.took, true);
    assert.ok(used.byteLength >= registry.bytesNeeded(), 'the worker view tracks the new length');
    assert.equal(main.lanes.laneOk(lane), 5);
    assert.equal(main.lanes.laneInflight(lane), 1);
    await worker.terminate();
    assert.deepEqual(registry.reclaimHolder(workerHolder(0)), { permits: 1, probes: 0, reservations: 0 });
    assert.equal(main.lanes.laneInflight(lane), 0);
  });

  it('counts survive the buffer growing under fixed-length views, read on main and in a worker', async () => {
    // Header-only start: every round's new slots lie past both threads' views, so each side
    // remakes its views at least once, and the older slots keep their counts across that.
    const main = SharedState.create({ holders: 2, initialBytes: 0, maxBytes: 8 << 20 });
    const registry = new SlotRegistry(main);
    const newSet = (r: number): SlotSet => ({
      lane: registry.laneSlot(`lane${r}`),
      cell: registry.cellSlot('p', `lane${r}`),
      counter: registry.metricSeries(`counter${r}`, { kind: 'counter' }),
      gauge: registry.metricSeries(`gauge${r}`, { kind: 'gauge' }),
      histogram: registry.metricSeries(`histogram${r}`, { kind: 'histogram', bounds: [1, 2, 4] }),
      group: registry.groupSlot(`group${r}`),
      key: registry.allocateKeySlot(),
      concurrency: registry.concurrencySlot(`bucket${r}`),
    });
    const sets = [newSet(0)];
    const worker = new Worker(FIXTURE, { workerData: { mode: 'rounds', buffers: main.buffers(), holderId: workerHolder(0) } satisfies RoundsTask });
    try {
      const attached = await nextMessage<{ byteLength: number }>(worker);
      assert.equal(attached.byteLength, main.byteLength());
      const ROUNDS = 4;
      for (let r = 0; r < ROUNDS; r++) {
        if (r > 0) {
          // Fill what is left, so the new set lies wholly past both threads' current views.
          const before = main.byteLength();
          for (let i = 0; registry.bytesNeeded() <= before; i++) registry.cellSlot('filler', `r${r}-${i}`);
          const set = newSet(r);
          assert.ok(set.lane * 4 >= before && main.byteLength() > before, `round ${r}: the buffer grew under the new set`);
          sets.push(set);
        }
        worker.postMessage({ sets });
        const reply = await nextMessage<{ byteLength: number; readings: SlotReading[] }>(worker);
        assert.ok(reply.byteLength >= registry.bytesNeeded(), 'the worker sees the grown buffer');
        for (const set of sets) countOnce(main, set);
        sets.forEach((set, i) => {
          // Each side counted once per round since the set was made; the worker read before
          // main's count of this round.
          const uses = r - i + 1;
          assert.deepEqual(reply.readings[i], uniform(2 * uses - 1), `round ${r}, set ${i}: worker reads`);
          assert.deepEqual(readSet(main, set), uniform(2 * uses), `round ${r}, set ${i}: main reads`);
        });
      }
      assert.equal(main.faultCount(), 0);
    } finally {
      await worker.terminate();
    }
  });
});

function uniform(n: number): SlotReading {
  return { laneOk: n, streak: n, windowOk: n, counter: n, gauge: n, histogramCount: n, groupRequests: n, keyRequests: n, concurrencyInflight: n };
}
