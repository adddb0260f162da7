import { test } from 'node:test';
import assert from 'node:assert/strict';
import { luaStringLiteral, parseWrkOutput, renderWrkScript, totalErrors, wrkArgs, WRK_RESULT_MARKER } from '../../../bench/driver/wrk.js';

// Real wrk 4.1.0 output with the generated script's result line.
const WRK_STDOUT = `Running 5s test @ http://127.0.0.1:40123/v1/chat/completions
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.16ms    4.53ms  42.72ms   88.01%
    Req/Sec    13.79k     1.02k   15.11k    70.00%
  41765 requests in 3.05s, 29.59MB read
Requests/sec:  13712.68
Transfer/sec:      9.72MB
WRK_RESULT {"requests":41765,"duration_us":3045722,"bytes":31031395,"errors":{"connect":0,"read":1,"write":0,"status":12,"timeout":2},"latency_us":{"min":353,"mean":5162.06,"stdev":4527.37,"max":42721,"p50":3874,"p90":10021,"p99":21950,"p999":38001}}
`;

test('parseWrkOutput reads the result line among wrk’s own output', () => {
  const r = parseWrkOutput(WRK_STDOUT);
  assert.equal(r.requests, 41765);
  assert.equal(r.durationMicros, 3045722);
  assert.equal(r.bytes, 31031395);
  assert.deepEqual(r.latencyMicros, { min: 353, mean: 5162.06, stdev: 4527.37, max: 42721, p50: 3874, p90: 10021, p99: 21950, p999: 38001 });
  assert.ok(Math.abs(r.requestsPerSec - 13712.68) < 0.01, `req/s ${r.requestsPerSec}`);
  assert.equal(totalErrors(r.errors), 15);
});

test('parseWrkOutput says what went wrong when the line is missing or broken', () => {
  assert.throws(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused\n'), /no result line.*Connection refused/s);
  assert.throws(() => parseWrkOutput(`${WRK_RESULT_MARKER}{"requests":\n`), /not JSON/);
});

test('parseWrkOutput gives 0 req/s, not a division by zero, for an empty run', () => {
  const line = `${WRK_RESULT_MARKER}{"requests":0,"duration_us":0,"bytes":0,"errors":{"connect":64,"read":0,"write":0,"status":0,"timeout":0},"latency_us":{"min":0,"mean":0,"stdev":0,"max":0,"p50":0,"p90":0,"p99":0,"p999":0}}`;
  assert.equal(parseWrkOutput(line).requestsPerSec, 0);
});

test('luaStringLiteral escapes quotes, backslashes, control bytes and UTF-8 as decimal escapes', () => {
  assert.equal(luaStringLiteral('plain text'), '"plain text"');
  assert.equal(luaStringLiteral('a"b\\c'), '"a\\"b\\\\c"');
  // A newline followed by a digit must stay two characters: three-digit escapes always.
  assert.equal(luaStringLiteral('\n1'), '"\\0101"');
  assert.equal(luaStringLiteral('é'), '"\\195\\169"');
});

test('renderWrkScript sets method, body, headers and prints the result line in done()', () => {
  const script = renderWrkScript({
    method: 'POST',
    path: '/v1/messages',
    body: '{"a":1}',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
  });
  assert.match(script, /^wrk\.method = "POST"$/m);
  assert.match(script, /^wrk\.body = "\{\\"a\\":1\}"$/m);
  assert.match(script, /^wrk\.headers\["anthropic-version"\] = "2023-06-01"$/m);
  assert.match(script, /done = function\(summary, latency, requests\)/);
  assert.ok(script.includes(WRK_RESULT_MARKER.trim()));
  assert.match(script, /latency:percentile\(99\.9\)/);
  assert.doesNotMatch(renderWrkScript({ method: 'GET', path: '/' }), /wrk\.body/);
});

test('wrkArgs never asks for more threads than connections', () => {
  const args = wrkArgs({ url: 'http://127.0.0.1:1/x', scriptPath: '/tmp/s.lua', connections: 1, threads: 4, durationSecs: 5, timeoutSecs: 10 });
  assert.deepEqual(args, ['-t', '1', '-c', '1', '-d', '5s', '--timeout', '10s', '-s', '/tmp/s.lua', 'http://127.0.0.1:1/x']);
});
