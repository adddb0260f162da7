// The young generation's floor reaches the workers made after it is set (a V8 flag read when
// an isolate is made): checked on a real worker thread's heap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { floorYoungGeneration, YOUNG_GENERATION_SEMI_SPACE_MB } from '../../src/main/worker-heap.js';

/** A new worker's new-space size before it allocates anything much, in bytes. */
function newSpaceOfAFreshWorker(): Promise<number> {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const v8 = require('node:v8');
    parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (size: number) => {
      resolve(size);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('floorYoungGeneration', () => {
  it('gives workers made after it a young generation of at least the floor from their start', async () => {
    const before = await newSpaceOfAFreshWorker();
    floorYoungGeneration();
    floorYoungGeneration(); // once is enough; a second call changes nothing
    const after = await newSpaceOfAFreshWorker();
    const floorBytes = YOUNG_GENERATION_SEMI_SPACE_MB * 1024 * 1024;
    assert.ok(before < floorBytes, `a worker starts below the floor by default (${before} bytes)`);
    assert.ok(after >= floorBytes, `a worker made after the floor starts at it (${after} bytes)`);
  });
});
