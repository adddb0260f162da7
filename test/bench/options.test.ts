import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBenchOptions } from '../../bench/options.js';

test('defaults: every scenario and target, pinned, one worker, results dir', () => {
  const o = parseBenchOptions([], '/r');
  assert.deepEqual(o, {
    scenarios: [],
    targets: ['mock', 'baseline', 'nginx', 'gateway'],
    durationSecs: null,
    warmupSecs: 2,
    settleSecs: 120,
    repeats: 2,
    connections: null,
    workers: 1,
    pin: true,
    outDir: '/r',
    keepTemp: false,
    compare: null,
    compareRounds: 2,
    gcTrace: false,
    governed: false,
    list: false,
    help: false,
  });
});

test('flags: scenario lists, targets, duration with or without s, pin off, no-write', () => {
  const o = parseBenchOptions(
    [
      '--scenario',
      'a,b',
      '--scenario',
      'c',
      '--targets',
      'mock,gateway',
      '--duration',
      '10s',
      '--warmup',
      '0',
      '--settle',
      '0',
      '--connections',
      '128',
      '--workers',
      '2',
      '--pin',
      'off',
      '--no-write',
    ],
    '/r',
  );
  assert.deepEqual(o.scenarios, ['a', 'b', 'c']);
  assert.deepEqual(o.targets, ['mock', 'gateway']);
  assert.equal(o.durationSecs, 10);
  assert.equal(o.warmupSecs, 0);
  assert.equal(o.settleSecs, 0);
  assert.equal(o.connections, 128);
  assert.equal(o.workers, 2);
  assert.equal(o.pin, false);
  assert.equal(o.outDir, null);
});

test('bad flags are named in the error', () => {
  assert.throws(() => parseBenchOptions(['--pin', 'maybe'], '/r'), /--pin must be "on" or "off"/);
  assert.throws(() => parseBenchOptions(['--duration', '1.5'], '/r'), /--duration must be whole seconds/);
  assert.throws(() => parseBenchOptions(['--workers', '0'], '/r'), /--workers must be an integer/);
  assert.throws(() => parseBenchOptions(['--targets', 'mock,envoy'], '/r'), /unknown target "envoy"/);
  assert.throws(() => parseBenchOptions(['--bogus'], '/r'), /bogus/);
});

test('--repeats: 1 to 20 rows per target, 2 by default; the last one given wins', () => {
  assert.equal(parseBenchOptions(['--repeats', '1'], '/r').repeats, 1);
  assert.equal(parseBenchOptions(['--repeats', '20'], '/r').repeats, 20);
  assert.equal(parseBenchOptions(['--repeats', '1', '--repeats', '3'], '/r').repeats, 3);
  for (const bad of ['0', '21', '1.5', 'two', '']) {
    assert.throws(() => parseBenchOptions(['--repeats', bad], '/r'), /--repeats must be an integer from 1 to 20/);
  }
  // --compare-rounds is the gateway's count with --compare; the flags are independent.
  const o = parseBenchOptions(['--repeats', '3', '--compare', 'main', '--compare-rounds', '2'], '/r');
  assert.deepEqual([o.repeats, o.compareRounds], [3, 2]);
});

test('--compare takes a git ref and a round count', () => {
  const o = parseBenchOptions(['--compare', 'main~3', '--compare-rounds', '3'], '/r');
  assert.equal(o.compare, 'main~3');
  assert.equal(o.compareRounds, 3);
  assert.throws(() => parseBenchOptions(['--compare', 'a b;rm'], '/r'), /--compare takes a git ref/);
  assert.throws(() => parseBenchOptions(['--compare-rounds', '0'], '/r'), /--compare-rounds must be an integer/);
});
