// One unauthenticated flood client of the preauth-flood scenario, as its own process (pinned to
// the load generator's cores, off the gateway's): it POSTs the same nested JSON body, no key,
// one request at a time on one keep-alive connection, as fast as the gateway answers, until
// SIGTERM; then it prints one JSON line: requests, answers by status, latency p50/p99/max.
//   node dist/bench/preauth/flood-client.js <url> <body-bytes>
import process from 'node:process';
import { Agent, request } from 'undici';
import { nestedBody } from './nested-body.js';

const [url, bytesText] = process.argv.slice(2);
if (url === undefined || bytesText === undefined) throw new Error('usage: flood-client.js <url> <body-bytes>');
const body = nestedBody(Number(bytesText));
const agent = new Agent({ connections: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
const statuses = new Map<string, number>();
const latenciesMs: number[] = [];
let stopping = false;

process.once('SIGTERM', () => {
  stopping = true;
});

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

while (!stopping) {
  const started = performance.now();
  let status = 'error';
  try {
    const res = await request(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, dispatcher: agent });
    await res.body.dump();
    status = String(res.statusCode);
  } catch (err) {
    status = (err as { code?: string }).code ?? 'error';
  }
  latenciesMs.push(performance.now() - started);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}
const sorted = [...latenciesMs].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    requests: latenciesMs.length,
    statuses: Object.fromEntries(statuses),
    p50_ms: percentile(sorted, 50),
    p99_ms: percentile(sorted, 99),
    max_ms: sorted[sorted.length - 1] ?? NaN,
  })}\n`,
);
await agent.close();
