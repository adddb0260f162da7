// Reservations racing on real worker threads (the admission and settle of reserve.ts on the
// same outstanding words): with an exact estimate no limit is ever passed and every limit fills
// up; with a low estimate the overshoot is at most the error of the requests in flight.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  GOV_BUDGET_REQUESTS,
  GOV_BUDGET_RESERVED,
  GOV_TOKENS,
  GOV_TOKENS_RESERVED,
  SharedState,
  SlotRegistry,
  workerHolder,
} from '../../../src/shared/sab/index.js';
import type { ReserveReport, ReserveTask } from './fixtures/reserve-hammer.js';

const FIXTURE = new URL('./fixtures/reserve-hammer.js', import.meta.url);
const WORKERS = 3;

async function race(over: Partial<ReserveTask>): Promise<{ main: SharedState; group: number; reports: ReserveReport[] }> {
  const main = SharedState.create({ holders: WORKERS + 1 });
  const registry = new SlotRegistry(main);
  const group = registry.groupSlot('acme');
  const barrier = new SharedArrayBuffer(8);
  const gate = new Int32Array(barrier);
  const base: Omit<ReserveTask, 'holderId'> = {
    buffers: main.buffers(),
    barrier,
    iterations: 20_000,
    group,
    tag: 7,
    estimate: 17,
    actual: 17,
    tokenCap: 100_000,
    fee: 3,
    budget: 1_000_000,
    ...over,
  };
  const workers = Array.from({ length: WORKERS }, (_, w) => new Worker(FIXTURE, { workerData: { ...base, holderId: workerHolder(w) } }));
  const reports = workers.map((w) => once(w, 'message').then(([m]) => m as ReserveReport));
  const exits = workers.map((w) => once(w, 'exit'));
  while (Atomics.load(gate, 1) < WORKERS) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
  const out = await Promise.all(reports);
  await Promise.all(exits);
  return { main, group, reports: out };
}

describe('reservations across worker threads', () => {
  it('an exact estimate never passes a tokens cap and fills it', async () => {
    const { main, group, reports } = await race({ estimate: 17, actual: 17, tokenCap: 100_000 });
    const admitted = reports.reduce((a, r) => a + r.admitted, 0);
    const used = main.governance.read(main.governance.groupIndex(group, 0, GOV_TOKENS), 7);
    assert.equal(used, admitted * 17);
    assert.equal(admitted, Math.floor(100_000 / 17), 'every token that fits was admitted, none more');
    assert.equal(main.reserved.read(main.governance.groupIndex(group, 0, GOV_TOKENS_RESERVED), 7), 0, 'nothing left outstanding');
  });

  it('a fee-priced budget admits exactly what it holds', async () => {
    const { main, group, reports } = await race({ tokenCap: 10_000_000, fee: 7, budget: 100_000 });
    const admitted = reports.reduce((a, r) => a + r.admitted, 0);
    assert.equal(admitted, Math.floor(100_000 / 7));
    assert.equal(main.governance.read(main.governance.groupIndex(group, 0, GOV_BUDGET_REQUESTS), 7), admitted);
    assert.equal(main.reserved.read(main.governance.groupIndex(group, 0, GOV_BUDGET_RESERVED), 7), 0);
  });

  it('a low estimate overshoots by at most its error times the requests in flight', async () => {
    // Each request reserves 10 and uses 13; each thread has one request in flight at a time.
    const { main, group } = await race({ estimate: 10, actual: 13, tokenCap: 50_000 });
    const used = main.governance.read(main.governance.groupIndex(group, 0, GOV_TOKENS), 7);
    assert.ok(used <= 50_000 + WORKERS * 3, `used ${used}`);
    assert.ok(used > 50_000 - 13, `filled: ${used}`);
  });
});
