// GET /metrics through the real gateway process with two workers: translations counted on
// either worker add up in shared memory and every scrape (whichever worker renders it) shows
// the exact total; a same-protocol body over the translate cap is counted as billing
// truncated; the text passes a real Prometheus parser and promtool. Without a prometheus
// export block /metrics is the same 404 as any unknown path.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { minimalRequest, rawPost, type RawAnswer } from '../helpers/clients/raw.js';
import { PROMTOOL, assertPromtoolClean, parseExposition, sampleValue } from '../helpers/prometheus.js';
import { suiteStack } from '../helpers/clients/stack.js';

const EXPORT = { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } };
/** Small enough that a padded mock body goes over it, large enough for every ordinary answer. */
const CAP_BYTES = 4096;
const TRANSLATED = 16;
const SCRAPES = 12;

/** Each call is a fresh connection, so the kernel spreads them over both workers. */
function scrape(url: string): Promise<RawAnswer> {
  return rawPost(`${url}/metrics`, '', { method: 'GET' });
}

async function sendAnthropicToOpenai(url: string): Promise<void> {
  const req = minimalRequest('anthropic', 'pool-openai', 'Count me.', false);
  const answer = await rawPost(url + req.path, req.body);
  assert.equal(answer.status, 200, answer.body.toString('utf8'));
}

describe('GET /metrics with a prometheus export, two workers', () => {
  const stack = suiteStack({ workers: 2, over: { ...EXPORT, advanced: { translate_body_cap_bytes: CAP_BYTES } } });

  it('counts every translated request once, whichever worker served or renders', async () => {
    for (let i = 0; i < TRANSLATED; i++) await sendAnthropicToOpenai(stack.gateway.url);
    for (let i = 0; i < SCRAPES; i++) {
      const answer = await scrape(stack.gateway.url);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      const families = parseExposition(answer.body.toString('utf8'));
      assert.equal(sampleValue(families, 'gateway_translations_total', { from: 'anthropic', to: 'openai' }), TRANSLATED, `scrape ${i}`);
      assert.equal(sampleValue(families, 'gateway_translations_total', { from: 'openai', to: 'anthropic' }), 0, `scrape ${i}`);
    }
  });

  it('counts a same-protocol response over the translate cap as billing truncated', async () => {
    const before = await scrape(stack.gateway.url);
    assert.equal(sampleValue(parseExposition(before.body.toString('utf8')), 'gateway_billing_truncated_total'), 0);
    const req = minimalRequest('openai', 'pool-openai', 'Pad it. [mock response_bytes=20000]', false);
    const answer = await rawPost(stack.gateway.url + req.path, req.body);
    assert.equal(answer.status, 200);
    assert.ok(answer.body.byteLength > CAP_BYTES, `body of ${answer.body.byteLength} bytes should be over the cap`);
    // Metering runs when the response has ended, a moment after the caller has it all.
    let seen: number | undefined;
    for (const until = Date.now() + 5_000; seen !== 1 && Date.now() < until; ) {
      seen = sampleValue(parseExposition((await scrape(stack.gateway.url)).body.toString('utf8')), 'gateway_billing_truncated_total');
      if (seen !== 1) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(seen, 1, 'gateway_billing_truncated_total');
    // Ordinary same-protocol answers under the cap are not counted.
    const small = minimalRequest('openai', 'pool-openai', 'Short.', false);
    assert.equal((await rawPost(stack.gateway.url + small.path, small.body)).status, 200);
    for (let i = 0; i < SCRAPES; i++) {
      const families = parseExposition((await scrape(stack.gateway.url)).body.toString('utf8'));
      assert.equal(sampleValue(families, 'gateway_billing_truncated_total'), 1, `scrape ${i}`);
    }
  });

  it("shows each thread's heap, event-loop delay and busy ratio once it has sampled (every 5 s)", async () => {
    const threads = ['main', 'worker-0', 'worker-1'];
    let families = parseExposition((await scrape(stack.gateway.url)).body.toString('utf8'));
    for (
      let waited = 0;
      waited < 15_000 && threads.some((thread) => sampleValue(families, 'gateway_thread_heap_used_bytes', { thread }) === undefined);
      waited += 500
    ) {
      await new Promise((r) => setTimeout(r, 500));
      families = parseExposition((await scrape(stack.gateway.url)).body.toString('utf8'));
    }
    for (const thread of threads) {
      const heap = sampleValue(families, 'gateway_thread_heap_used_bytes', { thread });
      assert.ok(heap !== undefined && heap > 1024 * 1024 && heap < 4 * 1024 ** 3, `${thread} heap ${heap}`);
      const p99 = sampleValue(families, 'gateway_thread_event_loop_delay_seconds', { thread, stat: 'p99' });
      const max = sampleValue(families, 'gateway_thread_event_loop_delay_seconds', { thread, stat: 'max' });
      assert.ok(p99 !== undefined && max !== undefined && p99 >= 0 && max >= p99 && max < 10, `${thread} delay p99 ${p99} max ${max}`);
      const busy = sampleValue(families, 'gateway_thread_busy_ratio', { thread });
      assert.ok(busy !== undefined && busy >= 0 && busy <= 1, `${thread} busy ${busy}`);
    }
    assert.equal(families.get('gateway_thread_busy_ratio')!.type, 'GAUGE');
    assert.equal(families.get('gateway_thread_heap_used_bytes')!.type, 'GAUGE');
  });

  it('passes promtool check metrics', { skip: existsSync(PROMTOOL) || process.env.CI ? false : `promtool is not installed at ${PROMTOOL}` }, async () => {
    const answer = await scrape(stack.gateway.url);
    assert.ok(assertPromtoolClean(answer.body.toString('utf8')));
  });
});

describe('GET /metrics without an export block', () => {
  const stack = suiteStack({ workers: 1 });

  it('is the same 404 as any unknown path', async () => {
    const metrics = await scrape(stack.gateway.url);
    const unknown = await rawPost(`${stack.gateway.url}/no-such-path`, '', { method: 'GET' });
    assert.equal(metrics.status, 404);
    assert.equal(metrics.headers['content-type'], unknown.headers['content-type']);
    // The same answer, naming its own path.
    assert.equal(metrics.body.toString('utf8'), unknown.body.toString('utf8').replace('/no-such-path', '/metrics'));
  });
});
