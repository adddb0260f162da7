import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCpuList, planPinning } from '../../bench/pinning.js';

test('two cores, one worker: proxy on core 0, mock and wrk together on core 1', () => {
  const l = planPinning({ cores: [0, 1], workers: 1, pin: true });
  assert.deepEqual([l.proxy, l.mock, l.load, l.loadThreads, l.sharesCores], [[0], [1], [1], 1, false]);
  assert.equal(l.description, 'gateway/baseline/nginx (1 worker) on core 0; mock + wrk (1 thread) on core 1');
});

test('two cores, two workers: the load generator shares a core with the proxy, and says so', () => {
  const l = planPinning({ cores: [0, 1], workers: 2, pin: true });
  assert.deepEqual([l.proxy, l.mock, l.load, l.sharesCores], [[0, 1], [1], [1], true]);
  assert.match(l.description, /SHARED with the proxy/);
});

test('spare cores go to wrk, one thread each', () => {
  const l = planPinning({ cores: [2, 3, 4, 5], workers: 1, pin: true });
  assert.deepEqual([l.proxy, l.mock, l.load, l.loadThreads, l.sharesCores], [[2], [3], [4, 5], 2, false]);
  assert.equal(l.description, 'gateway/baseline/nginx (1 worker) on core 2; mock on core 3; wrk (2 threads) on cores 4,5');
});

test('pin off (or one core) leaves scheduling to the OS and says so', () => {
  for (const l of [planPinning({ cores: [0, 1], workers: 1, pin: false }), planPinning({ cores: [0], workers: 1, pin: true })]) {
    assert.equal(l.pinned, false);
    assert.equal(l.proxy, null);
    assert.match(l.description, /^unpinned/);
  }
});

test('parseCpuList reads kernel CPU lists', () => {
  assert.deepEqual(parseCpuList('0-3,6,8-9\n'), [0, 1, 2, 3, 6, 8, 9]);
  assert.throws(() => parseCpuList('a-b'), /bad CPU list/);
});
