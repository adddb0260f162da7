// OpenTelemetry traces, exported over OTLP/HTTP to a real receiver (test/helpers/otlp-receiver.ts)
// and driven through the vendors' SDKs: one span shape per case (success, streamed success,
// failover, mid-stream failure, refusal), each with the GenAI attributes checked; the caller's
// traceparent continued and passed upstream through the attempt's span; prompts never leave
// unless include_prompt says so; parent-based sampling; spans shed and counted when the receiver
// stops answering.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import { OtlpReceiver, SPAN_KIND_CLIENT, SPAN_KIND_SERVER, STATUS_ERROR, type ReceivedSpan } from '../../helpers/otlp-receiver.js';
import { parseExposition, sampleValue } from '../../helpers/prometheus.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from '../governance/harness.js';

const PROM = { module: 'prometheus', settings: { buffer_seconds: 60 } };
const PROMPT_WORDS = 'tell me about the purple heron';

function otlp(receiver: OtlpReceiver, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    module: 'otlp',
    headers: { 'x-collector-key': { env: 'GW_TEST_COLLECTOR_KEY' } },
    settings: { endpoint: receiver.url, flush_interval_ms: 20, ...settings },
  };
}

const COLLECTOR_KEY = 'collector-key-for-the-receiver';

/** A caller's own trace context: a fresh trace id and span id, sampled. */
function callerContext(sampled = true): { traceId: string; spanId: string; header: string } {
  const hex = (n: number): string => [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, header: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

function serverSpan(spans: readonly ReceivedSpan[]): ReceivedSpan {
  const servers = spans.filter((s) => s.kind === SPAN_KIND_SERVER);
  assert.equal(servers.length, 1, `one server span: ${JSON.stringify(spans.map((s) => s.name))}`);
  return servers[0]!;
}

function clientSpans(spans: readonly ReceivedSpan[], server: ReceivedSpan): ReceivedSpan[] {
  const clients = spans.filter((s) => s.kind === SPAN_KIND_CLIENT).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  for (const c of clients) {
    assert.equal(c.parentSpanId, server.spanId, 'an attempt span is a child of the server span');
    assert.ok(c.startNs >= server.startNs && c.endNs <= server.endNs, 'within the request');
  }
  return clients;
}

/** The traceparent the mock received with the last request. */
async function upstreamTraceparent(mock: MockServer): Promise<string | undefined> {
  const last = (await (await request(`${mock.url}/mock/last-request`)).body.json()) as { headers: Record<string, string> };
  return last.headers.traceparent;
}

describe('traces over OTLP', () => {
  let good: MockServer;
  let bad: MockServer;
  let receiver: OtlpReceiver;
  let gw: RunningGateway;
  let openai: OpenAI;

  before(async () => {
    good = await startMockProvider({ port: 0 });
    bad = await startMockProvider({ port: 0, status: 503 });
    receiver = await new OtlpReceiver().start();
    const { config, providers } = mockConfig(good.url, { export: { traces: otlp(receiver), prom: PROM } });
    providers['mock-bad'] = { protocol: 'openai', base_url: `${bad.url}/v1`, auth: { mode: 'none' } };
    (config.models as Record<string, unknown>)['lane-bad'] = { provider: 'mock-bad', upstream_model: 'up-bad' };
    // SWRR picks the heavier member first: every request tries lane-bad, then fails over.
    (config.pools as Record<string, unknown>)['pool-fo'] = {
      members: [
        { model: 'lane-bad', weight: 10 },
        { model: 'lane-openai', weight: 1 },
      ],
      breaker: { trip: 'consecutive', consecutive_n: 1000 },
    };
    gw = await startGateway(writeConfig(config, providers), { env: { GW_TEST_COLLECTOR_KEY: COLLECTOR_KEY } });
    openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });

  after(async () => {
    await gw?.stop();
    await receiver?.close();
    await good?.close();
    await bad?.close();
  });

  it("a success: the caller's trace continued, one server span and one attempt span whose id went upstream", async () => {
    const caller = callerContext();
    const answer = await openai.chat.completions.create(
      { model: 'pool-openai', messages: [{ role: 'user', content: PROMPT_WORDS }] },
      { headers: { traceparent: caller.header } },
    );
    assert.equal(answer.choices[0]!.finish_reason, 'stop');
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 2);
    const spans = receiver.trace(caller.traceId);
    const server = serverSpan(spans);
    assert.equal(server.parentSpanId, caller.spanId);
    assert.equal(server.name, 'chat pool-openai');
    assert.equal(server.statusCode, 0);
    const a = server.attributes;
    assert.equal(a['gen_ai.operation.name'], 'chat');
    assert.equal(a['gen_ai.provider.name'], 'openai');
    assert.equal(a['gen_ai.request.model'], 'pool-openai');
    assert.equal(a['gen_ai.response.model'], 'up-openai');
    assert.equal(a['gen_ai.request.stream'], false);
    assert.equal(a['gen_ai.usage.input_tokens'], 12);
    assert.equal(a['gen_ai.usage.output_tokens'], 5);
    assert.equal(a['gen_ai.usage.cache_read.input_tokens'], 0);
    assert.deepEqual(a['gen_ai.response.finish_reasons'], ['stop']);
    assert.equal(a['gateway.pool'], 'pool-openai');
    assert.equal(a['gateway.lane'], 'lane-openai');
    assert.equal(a['gateway.ingress.protocol'], 'openai');
    assert.equal(a['gateway.disposition'], 'ok');
    assert.equal(a['gateway.attempts'], 1);
    assert.equal(a['http.response.status_code'], 200);
    assert.equal(a['error.type'], undefined);
    assert.equal(server.resource['service.name'], 'llm-gateway');
    const [attempt, ...more] = clientSpans(spans, server);
    assert.equal(more.length, 0);
    assert.equal(attempt!.name, 'chat up-openai');
    assert.equal(attempt!.attributes['gen_ai.request.model'], 'up-openai');
    assert.equal(attempt!.attributes['gateway.attempt.outcome'], 'ok');
    assert.equal(attempt!.attributes['server.address'], '127.0.0.1');
    assert.equal(attempt!.attributes['server.port'], good.port);
    assert.equal(await upstreamTraceparent(good), `00-${caller.traceId}-${attempt!.spanId}-01`, 'the upstream sees the attempt span as its parent');
    assert.equal(receiver.headers.at(-1)!['x-collector-key'], COLLECTOR_KEY, 'the export sends its configured headers');
  });

  it('a streamed success, same protocol and translated: finish reasons and usage seen on the way', async () => {
    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: 'unused', maxRetries: 0 });
    const caller = callerContext();
    const stream = anthropic.messages.stream(
      { model: 'pool-anthropic', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { traceparent: caller.header } },
    );
    const message = await stream.finalMessage();
    assert.equal(message.stop_reason, 'end_turn');
    const translated = callerContext();
    const chunks = await openai.chat.completions.create(
      { model: 'pool-anthropic', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { traceparent: translated.header } },
    );
    for await (const _ of chunks); // eslint-disable-line @typescript-eslint/no-unused-vars
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 2 && receiver.trace(translated.traceId).length >= 2);
    for (const [traceId, protocol] of [
      [caller.traceId, 'anthropic'],
      [translated.traceId, 'openai'],
    ] as const) {
      const server = serverSpan(receiver.trace(traceId));
      const a = server.attributes;
      assert.equal(a['gateway.ingress.protocol'], protocol);
      assert.equal(a['gen_ai.request.stream'], true);
      assert.equal(a['gen_ai.provider.name'], 'anthropic');
      assert.deepEqual(a['gen_ai.response.finish_reasons'], ['stop'], protocol);
      assert.equal(a['gen_ai.usage.output_tokens'], 5, protocol);
      assert.equal(typeof a['gen_ai.response.time_to_first_chunk'], 'number');
      assert.equal(clientSpans(receiver.trace(traceId), server).length, 1);
    }
  });

  it('a failover: two attempt spans, the first failed with its reason, the request served', async () => {
    const caller = callerContext();
    const answer = await openai.chat.completions.create(
      { model: 'pool-fo', messages: [{ role: 'user', content: 'hi' }] },
      { headers: { traceparent: caller.header } },
    );
    assert.equal(answer.model, 'up-openai');
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 3);
    const spans = receiver.trace(caller.traceId);
    const server = serverSpan(spans);
    assert.equal(server.attributes['gateway.attempts'], 2);
    assert.deepEqual(server.attributes['gateway.failover.reasons'], ['transient_upstream']);
    assert.equal(server.attributes['gateway.lane'], 'lane-openai');
    assert.equal(server.attributes['gateway.disposition'], 'ok');
    assert.equal(server.statusCode, 0);
    const [failed, served] = clientSpans(spans, server);
    assert.equal(failed!.attributes['gateway.lane'], 'lane-bad');
    assert.equal(failed!.attributes['gateway.attempt.outcome'], 'transient_upstream');
    assert.equal(failed!.attributes['gateway.failover.reason'], 'transient_upstream');
    assert.equal(failed!.attributes['http.response.status_code'], 503);
    assert.equal(failed!.attributes['error.type'], '503');
    assert.equal(failed!.statusCode, STATUS_ERROR);
    assert.equal(served!.attributes['gateway.lane'], 'lane-openai');
    assert.equal(served!.attributes['gateway.attempt.outcome'], 'ok');
    assert.ok(served!.startNs >= failed!.endNs, 'the second attempt after the first');
  });

  it('a mid-stream failure: the server span is an error, the attempt ends mid_stream', async () => {
    const caller = callerContext();
    const stream = await openai.chat.completions.create(
      { model: 'pool-openai', stream: true, messages: [{ role: 'user', content: 'hi [mock fault=reset_during chunks=8]' }] },
      { headers: { traceparent: caller.header } },
    );
    await assert.rejects(async () => {
      for await (const _ of stream); // eslint-disable-line @typescript-eslint/no-unused-vars
    });
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 2);
    const spans = receiver.trace(caller.traceId);
    const server = serverSpan(spans);
    assert.equal(server.statusCode, STATUS_ERROR);
    assert.equal(server.attributes['error.type'], 'transient_upstream');
    assert.equal(server.attributes['gateway.disposition'], 'transient_upstream');
    assert.equal(typeof server.attributes['gen_ai.response.time_to_first_chunk'], 'number', 'the answer had started');
    const [attempt] = clientSpans(spans, server);
    assert.equal(attempt!.attributes['gateway.attempt.outcome'], 'mid_stream');
    assert.equal(attempt!.statusCode, STATUS_ERROR);
  });

  it('starts a trace for a caller that sent none, and never exports the prompt', async () => {
    const before = receiver.spans.length;
    await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: PROMPT_WORDS }] });
    await receiver.waitFor((spans) => spans.slice(before).some((s) => s.kind === SPAN_KIND_SERVER && s.parentSpanId === ''));
    const root = receiver.spans.slice(before).find((s) => s.kind === SPAN_KIND_SERVER)!;
    assert.match(root.traceId, /^[0-9a-f]{32}$/);
    assert.equal(await upstreamTraceparent(good), `00-${root.traceId}-${receiver.trace(root.traceId).find((s) => s.kind === SPAN_KIND_CLIENT)!.spanId}-01`);
    for (const body of receiver.bodies) assert.ok(!body.includes('purple heron'), 'no prompt in any export');
    for (const s of receiver.spans) assert.equal(s.attributes['gen_ai.input.messages'], undefined);
  });

  it("passes the caller's traceparent through untouched when it is not sampled, and records nothing", async () => {
    const caller = callerContext(false);
    await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'hi' }] }, { headers: { traceparent: caller.header } });
    assert.equal(await upstreamTraceparent(good), caller.header);
    await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'flush marker' }] });
    await new Promise((resolve) => setTimeout(resolve, 300)); // several flush intervals
    assert.equal(receiver.trace(caller.traceId).length, 0);
  });
});

describe('trace sampling, prompt opt-in and shedding', () => {
  let mock: MockServer;
  let receiver: OtlpReceiver;
  const gateways: RunningGateway[] = [];

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    receiver = await new OtlpReceiver().start();
  });

  after(async () => {
    for (const g of gateways) await g.stop();
    await receiver?.close();
    await mock?.close();
  });

  async function gateway(settings: Record<string, unknown>): Promise<{ gw: RunningGateway; openai: OpenAI }> {
    const { config, providers } = mockConfig(mock.url, { export: { traces: otlp(receiver, settings), prom: PROM } });
    const gw = await startGateway(writeConfig(config, providers), { env: { GW_TEST_COLLECTOR_KEY: COLLECTOR_KEY } });
    gateways.push(gw);
    return { gw, openai: new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'unused', maxRetries: 0 }) };
  }

  it("sample_ratio 0 traces no request of its own, a sampled caller's still (parent-based), with the prompt when include_prompt is on", async () => {
    const { openai } = await gateway({ sample_ratio: 0, include_prompt: true });
    const before = receiver.spans.length;
    await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'not traced' }] });
    const caller = callerContext();
    await openai.chat.completions.create(
      {
        model: 'pool-openai',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: PROMPT_WORDS },
        ],
      },
      { headers: { traceparent: caller.header } },
    );
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.spans.length - before, 2, "only the sampled caller's request");
    const server = serverSpan(receiver.trace(caller.traceId));
    const messages = JSON.parse(String(server.attributes['gen_ai.input.messages'])) as { role: string; parts: { type: string; content: string }[] }[];
    assert.deepEqual(messages, [{ role: 'user', parts: [{ type: 'text', content: PROMPT_WORDS }] }]);
    assert.deepEqual(JSON.parse(String(server.attributes['gen_ai.system_instructions'])), [{ type: 'text', content: 'be brief' }]);
  });

  it('sheds and counts spans when the receiver falls behind, and sends the rest once it answers', async () => {
    const { gw, openai } = await gateway({ max_queue_spans: 2, max_batch_spans: 1, flush_interval_ms: 10, timeout_ms: 60_000 });
    receiver.holding = true;
    const before = receiver.spans.length;
    const REQUESTS = 6;
    for (let i = 0; i < REQUESTS; i++) await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'hi' }] });
    // One span is in the held export and two are queued; the other nine were shed.
    const metrics = parseExposition(await (await request(`${gw.url}/metrics`)).body.text());
    assert.equal(sampleValue(metrics, 'gateway_trace_spans_dropped_total', { reason: 'queue_full' }), REQUESTS * 2 - 3);
    assert.equal(sampleValue(metrics, 'gateway_trace_spans_dropped_total', { reason: 'export_failed' }), 0);
    receiver.release();
    await receiver.waitFor((spans) => spans.length - before >= 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.spans.length - before, 3);
  });
});

describe("a refusal's span", () => {
  let mock: MockServer;
  let receiver: OtlpReceiver;
  let g: Governed | undefined;
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    receiver = await new OtlpReceiver().start();
    g = await startGoverned(mock.url, witness, {
      workers: 1,
      over: { export: { traces: { module: 'otlp', settings: { endpoint: receiver.url, flush_interval_ms: 20 } }, prom: PROM } },
    });
  });

  after(async () => {
    await stopGoverned(g, witness);
    await receiver?.close();
    await mock?.close();
  });

  // A refusal passes through the request's one end like every exit, so it has its span too.
  it('a 429 from a group limit: a server span with the refusing bucket and no attempt', async () => {
    await g!.admin.ok('POST', '/groups', { name: 'capped', limits: [{ metric: 'requests', window: 'total', max: 1 }] });
    const key = (await g!.admin.mint({ name: 'capped-key', group: 'capped' })).secret;
    const openai = new OpenAI({ baseURL: `${g!.gw.url}/v1`, apiKey: key, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'hi' }] });
    const caller = callerContext();
    await assert.rejects(
      openai.chat.completions.create({ model: 'pool-openai', messages: [{ role: 'user', content: 'hi' }] }, { headers: { traceparent: caller.header } }),
      (err: unknown) => err instanceof OpenAI.RateLimitError,
    );
    await receiver.waitFor(() => receiver.trace(caller.traceId).length >= 1, 3_000);
    const spans = receiver.trace(caller.traceId);
    const server = serverSpan(spans);
    assert.equal(server.parentSpanId, caller.spanId);
    assert.equal(server.attributes['http.response.status_code'], 429);
    assert.equal(server.attributes['gateway.governance.bucket'], 'group:capped@total');
    assert.equal(server.attributes['gateway.governance.group'], 'capped');
    assert.equal(server.attributes['gateway.attempts'], 0);
    assert.equal(server.statusCode, 0, "the caller's 4xx is not the gateway's error");
    assert.equal(spans.filter((s) => s.kind === SPAN_KIND_CLIENT).length, 0);
  });
});
