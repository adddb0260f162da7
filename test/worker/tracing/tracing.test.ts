// The tracing module in process: W3C traceparent reading and writing, parent-based sampling,
// the shedding batch processor (bounded queue, one export in flight, drops counted by reason),
// and the spans built from a request's summary (ids, parents, times, attributes).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import type { CompiledTracing } from '../../../src/shared/config/compiled.js';
import { SpanDropReason } from '../../../src/shared/metrics/catalog.js';
import { AttemptOutcome, Disposition } from '../../../src/shared/routing/attempt-outcome.js';
import { formatTraceparent, parseTraceparent, randomId } from '../../../src/worker/tracing/traceparent.js';
import { beginTrace, RequestTrace } from '../../../src/worker/tracing/request-trace.js';
import { SheddingSpanProcessor } from '../../../src/worker/tracing/shedding-span-processor.js';
import { PresetIdGenerator, buildSpans } from '../../../src/worker/tracing/span-builder.js';
import type { RequestSummary } from '../../../src/worker/tracing/request-summary.js';
import type { LaneRuntime } from '../../../src/worker/runtime.js';

const TRACING: CompiledTracing = {
  endpoint: 'http://127.0.0.1:4318/v1/traces',
  headers: {},
  sampleRatio: 1,
  includePrompt: false,
  maxQueueSpans: 2048,
  maxBatchSpans: 512,
  flushIntervalMs: 1000,
  timeoutMs: 10_000,
  serviceName: 'test',
};
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

function lane(name: string, protocol: string, origin: string): LaneRuntime {
  return { compiled: { name, upstreamModel: `up-${name}` }, provider: { compiled: { name: `prov-${name}`, protocol, origin } } } as unknown as LaneRuntime;
}

describe('traceparent', () => {
  it('reads a valid header and refuses malformed ones', () => {
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-01`), { traceId: TRACE, spanId: SPAN, sampled: true });
    assert.deepEqual(parseTraceparent(`00-${TRACE}-${SPAN}-00`), { traceId: TRACE, spanId: SPAN, sampled: false });
    assert.deepEqual(parseTraceparent(`01-${TRACE}-${SPAN}-03-future`), { traceId: TRACE, spanId: SPAN, sampled: true }, 'a later version may add fields');
    for (const bad of [
      '',
      'garbage',
      `ff-${TRACE}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
    ]) {
      assert.equal(parseTraceparent(bad), null, bad);
    }
  });

  it('writes version 00 and makes random ids', () => {
    assert.equal(formatTraceparent(TRACE, SPAN, true), `00-${TRACE}-${SPAN}-01`);
    assert.match(randomId(16), /^[0-9a-f]{32}$/);
    assert.match(randomId(8), /^[0-9a-f]{16}$/);
    assert.notEqual(randomId(8), randomId(8));
  });
});

describe('sampling (beginTrace)', () => {
  it("follows a caller's sampled flag, and the ratio otherwise", () => {
    assert.equal(beginTrace({ ...TRACING, sampleRatio: 0 }, `00-${TRACE}-${SPAN}-01`)?.traceId, TRACE);
    assert.equal(beginTrace({ ...TRACING, sampleRatio: 1 }, `00-${TRACE}-${SPAN}-00`), null);
    assert.equal(beginTrace({ ...TRACING, sampleRatio: 0 }, ''), null);
    assert.equal(beginTrace({ ...TRACING, sampleRatio: 0.25 }, '', () => 0.2)?.parentSpanId, '');
    assert.equal(
      beginTrace({ ...TRACING, sampleRatio: 0.25 }, '', () => 0.3),
      null,
    );
    assert.notEqual(beginTrace(TRACING, 'not a traceparent'), null, "a malformed header starts a trace of the gateway's own");
  });

  it("names each attempt's span in the traceparent it sends upstream", () => {
    const t = new RequestTrace(TRACE, SPAN);
    const header = t.attemptSent(lane('a', 'openai', 'http://127.0.0.1:9000'), 10);
    assert.equal(header, `00-${TRACE}-${t.attempts[0]!.spanId}-01`);
    t.attemptEnded(AttemptOutcome.Transient, 503, 20);
    t.attemptEnded(AttemptOutcome.Ok, 200, 30);
    assert.deepEqual(
      [t.attempts[0]!.outcome, t.attempts[0]!.status, t.attempts[0]!.endedMs],
      [AttemptOutcome.Transient, 503, 20],
      'an ended attempt is not ended again',
    );
  });
});

class StallingExporter implements SpanExporter {
  readonly batches: ReadableSpan[][] = [];
  private pending: ((r: ExportResult) => void)[] = [];
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.batches.push(spans);
    this.pending.push(done);
  }
  answer(code: ExportResultCode): void {
    this.pending.shift()?.({ code });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const span = (name: string): ReadableSpan => ({ name }) as unknown as ReadableSpan;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SheddingSpanProcessor', () => {
  it('holds up to max_queue_spans behind one export, sheds the rest and counts them, then drains', async () => {
    const exporter = new StallingExporter();
    const dropped: [SpanDropReason, number][] = [];
    const p = new SheddingSpanProcessor(exporter, { maxQueueSpans: 3, maxBatchSpans: 2, flushIntervalMs: 60_000 }, (r, n) => dropped.push([r, n]));
    p.onEnd(span('a'));
    p.onEnd(span('b')); // a full batch: sent on the next turn
    await turn();
    assert.deepEqual(
      exporter.batches.map((b) => b.map((s) => s.name)),
      [['a', 'b']],
    );
    for (const name of ['c', 'd', 'e', 'f', 'g']) p.onEnd(span(name));
    assert.deepEqual(
      dropped,
      [
        [SpanDropReason.QueueFull, 1],
        [SpanDropReason.QueueFull, 1],
      ],
      'two past the queue of three',
    );
    await turn();
    assert.equal(exporter.batches.length, 1, 'one export in flight at a time');
    exporter.answer(ExportResultCode.SUCCESS);
    assert.deepEqual(
      exporter.batches[1]!.map((s) => s.name),
      ['c', 'd'],
    );
    exporter.answer(ExportResultCode.FAILED);
    assert.deepEqual(dropped.at(-1), [SpanDropReason.ExportFailed, 2], "a failed export's spans are counted");
    const flushed = p.forceFlush();
    assert.deepEqual(
      exporter.batches[2]!.map((s) => s.name),
      ['e'],
    );
    exporter.answer(ExportResultCode.SUCCESS);
    await flushed;
    await p.shutdown();
  });
});

describe('spans from a summary (buildSpans)', () => {
  const summary = (over: Partial<RequestSummary> = {}): RequestSummary => ({
    operation: 'chat',
    ingressProtocol: 'anthropic',
    requestModel: 'pool-x',
    stream: true,
    pool: 'pool-x',
    disposition: Disposition.Ok,
    status: 200,
    usage: { input: 10, output: 7, cacheRead: 3, cacheCreation: 0 },
    responseModel: '',
    finishReasons: [],
    keyId: 'key_1',
    group: 'team',
    bucket: '',
    startedMs: 1000,
    firstByteMs: 1040,
    endedMs: 1100,
    prompt: null,
    ...over,
  });

  function build(t: RequestTrace, s: RequestSummary): ReadableSpan[] {
    const exporter = new InMemorySpanExporter();
    const ids = new PresetIdGenerator();
    const provider = new BasicTracerProvider({ idGenerator: ids, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    buildSpans(provider.getTracer('t'), ids, t, s);
    return exporter.getFinishedSpans();
  }

  it('a failover: the ids the trace chose, the attempts under the server span, in their times', () => {
    const t = new RequestTrace(TRACE, SPAN);
    t.attemptSent(lane('bad', 'openai', 'http://127.0.0.1:9001'), 1001);
    t.attemptEnded(AttemptOutcome.Transient, 503, 1010);
    t.attemptSent(lane('good', 'anthropic', 'https://api.anthropic.com'), 1011);
    t.observeEvent({ type: 'start', id: 'm', model: 'claude-x' });
    t.observeEvent({ type: 'finish', reason: 'stop' });
    t.attemptEnded(AttemptOutcome.Ok, 200, 1099);
    const spans = build(t, summary());
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const clients = spans.filter((s) => s.kind === SpanKind.CLIENT);
    assert.equal(server.spanContext().traceId, TRACE);
    assert.equal(server.spanContext().spanId, t.serverSpanId);
    assert.equal(server.parentSpanContext?.spanId, SPAN);
    assert.deepEqual(
      clients.map((c) => c.spanContext().spanId),
      t.attempts.map((a) => a.spanId),
    );
    for (const c of clients) assert.equal(c.parentSpanContext?.spanId, t.serverSpanId);
    assert.equal(server.attributes['gen_ai.provider.name'], 'anthropic');
    assert.equal(server.attributes['gen_ai.response.model'], 'claude-x');
    assert.equal(server.attributes['gen_ai.usage.input_tokens'], 13, 'cached input counted in');
    assert.equal(server.attributes['gen_ai.usage.cache_read.input_tokens'], 3);
    assert.deepEqual(server.attributes['gen_ai.response.finish_reasons'], ['stop']);
    assert.deepEqual(server.attributes['gateway.failover.reasons'], ['transient_upstream']);
    assert.equal(server.attributes['gateway.governance.group'], 'team');
    assert.equal(server.attributes['gen_ai.response.time_to_first_chunk'], 0.04);
    assert.equal(clients[0]!.attributes['gateway.failover.reason'], 'transient_upstream');
    assert.equal(clients[1]!.attributes['server.port'], 443);
    const ms = (t: [number, number]): number => t[0] * 1000 + t[1] / 1e6;
    assert.ok(Math.abs(ms(clients[0]!.endTime) - ms(clients[0]!.startTime) - 9) < 0.01, "the attempt's own duration");
    assert.ok(Math.abs(ms(server.endTime) - ms(server.startTime) - 100) < 0.01, "the request's duration");
  });

  it("a refusal: a root server span of the gateway's own trace with no attempt", () => {
    const t = new RequestTrace(TRACE, '');
    const spans = build(t, summary({ disposition: Disposition.ClientError, status: 429, usage: null, bucket: 'group:team@minute', firstByteMs: 0 }));
    assert.equal(spans.length, 1);
    assert.equal(spans[0]!.parentSpanContext, undefined);
    assert.equal(spans[0]!.attributes['http.response.status_code'], 429);
    assert.equal(spans[0]!.attributes['gateway.governance.bucket'], 'group:team@minute');
    assert.equal(spans[0]!.attributes['error.type'], 'client_error');
    assert.equal(spans[0]!.status.code, 0, 'a 4xx is not a server error');
  });
});
