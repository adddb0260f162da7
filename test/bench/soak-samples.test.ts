// The soak's verdict (issue 15) on fixed samples: flat RSS and fds pass; growing RSS, growing
// fds, a failed healthz or an unexpected error fail; too short a run says so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sampleIntervalSecs, samplesTable, soakVerdict, threadRuntimeOf, type SoakSample } from '../../bench/soak/samples.js';

const MiB = 1048576;

function samples(rssMiB: number[], fds: number[], healthzMs: number[] = rssMiB.map(() => 1)): SoakSample[] {
  return rssMiB.map((r, i) => ({ atSecs: i * 30, rssBytes: r * MiB, openFds: fds[i]!, healthzMs: healthzMs[i]!, requests: i * 1000 }));
}

describe('soak verdict', () => {
  it('passes flat RSS (warm-up excluded) and flat fds', () => {
    const v = soakVerdict(samples([100, 150, 160, 162, 158, 161, 163, 160, 159], [40, 70, 70, 71, 70, 69, 70, 70, 71]), 0);
    assert.equal(v.pass, true, v.text);
    assert.ok(v.rssGrowth < 0.1);
    assert.match(v.text, /^PASS/);
  });

  it('passes a GC saw-tooth: wide spread, no growth', () => {
    const v = soakVerdict(samples([100, 150, 140, 175, 140, 176, 141, 174, 142, 175], Array(10).fill(70)), 0);
    assert.ok(v.rssSpread > 0.2);
    assert.equal(v.rssFlat, true, v.text);
  });

  it('fails RSS that keeps growing, with its slope', () => {
    const v = soakVerdict(samples([100, 150, 160, 170, 180, 190, 200, 210, 220], Array(9).fill(70)), 0);
    assert.equal(v.rssFlat, false);
    assert.equal(v.pass, false);
    assert.ok(v.rssSlopeMiBPerHour > 1000);
  });

  it('fails growing fds, a failed healthz, an unexpected error', () => {
    assert.equal(soakVerdict(samples(Array(9).fill(150), [70, 70, 70, 75, 80, 85, 90, 95, 100]), 0).fdsFlat, false);
    assert.equal(soakVerdict(samples(Array(9).fill(150), Array(9).fill(70), [1, 1, 1, 1, NaN, 1, 1, 1, 1]), 0).pass, false);
    assert.equal(soakVerdict(samples(Array(9).fill(150), Array(9).fill(70)), 1).pass, false);
  });

  it('does not judge a sample taken while a worker recycled (shown in the table)', () => {
    const s = samples([100, 150, 160, 162, 60, 161, 163, 160, 159], Array(9).fill(70), [1, 1, 1, 1, NaN, 1, 1, 1, 1]);
    s[4]!.recycling = true;
    s[4]!.openFds = 20;
    const v = soakVerdict(s, 0);
    assert.equal(v.pass, true, v.text);
    assert.equal(v.healthzFailures, 0);
    assert.match(samplesTable(s), /\| 120 \(recycling\) \| 60\.0 \|/);
  });

  it('says a run is too short instead of judging it', () => {
    const v = soakVerdict(samples([100, 150, 160], [70, 70, 70]), 0);
    assert.equal(v.pass, false);
    assert.match(v.text, /too few samples/);
  });

  it('samples every 30 s in a long run, about ten times in a short one', () => {
    assert.equal(sampleIntervalSecs(1800), 30);
    assert.equal(sampleIntervalSecs(60), 6);
    assert.equal(sampleIntervalSecs(5), 1);
  });

  it('prints a markdown table row per sample', () => {
    const table = samplesTable(samples([100, 110], [40, 41], [1.25, NaN]));
    assert.equal(table.split('\n').length, 4);
    assert.match(table, /\| 30 \| 110\.0 \| – \| – \| – \| 41 \| FAILED \| 1000 \|/);
    const withHeap = samplesTable([
      { ...samples([100], [40])[0]!, heapMainBytes: 20 * MiB, heapWorkersBytes: 30 * MiB, loopDelayP99Ms: 1.5, loopDelayMaxMs: 12 },
    ]);
    assert.match(withHeap, /\| 0 \| 100\.0 \| 20\.0 \| 30\.0 \| 1\.5 \/ 12\.0 \| 40 \| 1\.0 \| 0 \|/);
  });

  it("reads each thread's heap and the worst event-loop delay from an exposition page", () => {
    const page = [
      '# TYPE gateway_thread_heap_used_bytes gauge',
      'gateway_thread_heap_used_bytes{thread="main"} 1048576',
      'gateway_thread_heap_used_bytes{thread="worker-0"} 2097152',
      'gateway_thread_heap_used_bytes{thread="worker-1"} 3145728',
      'gateway_thread_event_loop_delay_seconds{thread="main",stat="p99"} 0.002',
      'gateway_thread_event_loop_delay_seconds{thread="main",stat="max"} 0.01',
      'gateway_thread_event_loop_delay_seconds{thread="worker-0",stat="p99"} 0.004',
      'gateway_thread_event_loop_delay_seconds{thread="worker-0",stat="max"} 0.008',
    ].join('\n');
    assert.deepEqual(threadRuntimeOf(page), { heapMainBytes: MiB, heapWorkersBytes: 5 * MiB, loopDelayP99Ms: 4, loopDelayMaxMs: 10 });
  });
});
