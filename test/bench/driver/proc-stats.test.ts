import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreBusyPercent, parseCoreTimes, parseProcStat, parseVmHwmBytes, readTreeCpuMicros, readTreePeakRssBytes } from '../../../bench/driver/proc-stats.js';

test('parseProcStat counts fields from the last parenthesis (names may hold spaces and parens)', () => {
  const line = '4242 (node (worker) 1) S 4000 4242 4000 0 -1 4194560 1234 0 0 0 150 37 0 0 20 0 11 0 12345 1000000 5000 18446744073709551615';
  assert.deepEqual(parseProcStat(line), { pid: 4242, ppid: 4000, cpuTicks: 187 });
  assert.throws(() => parseProcStat('garbage'), /not a \/proc stat line/);
});

test('parseVmHwmBytes reads kB into bytes, 0 when absent', () => {
  assert.equal(parseVmHwmBytes('Name:\tnode\nVmPeak:\t  900 kB\nVmHWM:\t   51200 kB\nVmRSS:\t 40000 kB\n'), 51200 * 1024);
  assert.equal(parseVmHwmBytes('Name:\tkthreadd\n'), 0);
});

test('core busy percent from two /proc/stat readings', () => {
  const before = parseCoreTimes('cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 10 0 0 90 0 0 0 0 0 0\ncpu1 0 0 10 90 0 0 0 0 0 0\nintr 1\n');
  const after = parseCoreTimes('cpu  10 0 10 80 0 0 0 0 0 0\ncpu0 70 0 15 105 10 0 0 0 0 0\ncpu1 0 0 10 190 0 0 0 0 0 0\n');
  const busy = coreBusyPercent(before, after);
  // cpu0: total 100 -> 200, idle + iowait 90 -> 115, so busy grew 75 of 100.
  assert.equal(busy.get(0), 75);
  assert.equal(busy.get(1), 0);
  assert.equal(busy.size, 2);
});

test('this process has CPU time and a peak RSS in /proc', async () => {
  assert.ok((await readTreeCpuMicros(process.pid)) > 0);
  assert.ok((await readTreePeakRssBytes(process.pid)) > 1024 * 1024);
});
