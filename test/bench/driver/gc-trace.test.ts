import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { GC_TRACE_FLAG, sumGcLines } from '../../../bench/driver/gc-trace.js';

test('--trace-gc-nvp lines of a real node process add up to its allocation', () => {
  // About 48 MB of short-lived objects: several scavenges, every byte counted once.
  const out = execFileSync(process.execPath, [GC_TRACE_FLAG, '-e', 'let k=0;for(let i=0;i<2e6;i++){const o={a:i,b:i};k+=o.a}'], { encoding: 'utf8' });
  const g = sumGcLines(`log line before\n${out}`, 2e6)!;
  assert.ok(g.scavenges >= 2, `scavenges: ${g.scavenges}`);
  assert.ok(g.allocatedBytesPerRequest > 8 && g.allocatedBytesPerRequest < 200, `bytes per object: ${g.allocatedBytesPerRequest}`);
  assert.ok(g.pauseMsMax <= g.pauseMsTotal);
});

test('no GC lines: null', () => {
  assert.equal(sumGcLines('{"level":"info","msg":"listening"}\n', 10), null);
});
