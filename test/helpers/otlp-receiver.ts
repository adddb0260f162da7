// A real OTLP/HTTP trace receiver for the tests (Debian ships no OpenTelemetry Collector): it
// takes POST /v1/traces as the collector does, decodes the ExportTraceServiceRequest (OTLP/JSON,
// the encoding @opentelemetry/exporter-trace-otlp-http sends; the protobuf encoding is refused
// with 415, as a JSON-only receiver would), answers an ExportTraceServiceResponse, and keeps
// every span flattened: ids, parent, kind, times and attributes as plain values. It can hold
// its answers (the collector falling behind) to make the gateway shed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP/JSON AnyValue. */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}
interface ExportTraceServiceRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[];
}

type AttributeValue = string | number | boolean | AttributeValue[] | { [key: string]: AttributeValue } | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, AttributeValue>;
  scope: string;
}

export const SPAN_KIND_SERVER = 2;
export const SPAN_KIND_CLIENT = 3;
export const STATUS_ERROR = 2;

function attributeValueOf(v: AnyValue | undefined): AttributeValue {
  if (v === undefined) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(attributeValueOf);
  if (v.kvlistValue !== undefined) return attributesOf(v.kvlistValue.values);
  return null;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of list ?? []) out[kv.key] = attributeValueOf(kv.value);
  return out;
}

/** Decodes one OTLP/JSON ExportTraceServiceRequest into flat spans. */
function decodeTraces(body: ExportTraceServiceRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = attributesOf(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: attributesOf(s.attributes),
          statusCode: s.status?.code ?? 0,
          resource,
          scope: ss.scope?.name ?? '',
        });
      }
    }
  }
  return out;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export's raw body, as text (to prove what never left). */
  readonly bodies: string[] = [];
  /** Every export's request headers. */
  readonly headers: IncomingMessage['headers'][] = [];
  /** Answers held while this is true (the collector falling behind). */
  holding = false;
  private held: ServerResponse[] = [];
  private server: Server | null = null;
  private waiters: (() => void)[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.take(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves once `predicate` holds over the spans received (checked on every export). */
  async waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.spans)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for spans; got ${this.spans.length}: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Answers every held export and stops holding. */
  release(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) this.answer(res);
  }

  async close(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private take(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      this.bodies.push(text);
      this.headers.push(req.headers);
      this.spans.push(...decodeTraces(JSON.parse(text) as ExportTraceServiceRequest));
      for (const w of this.waiters.splice(0)) w();
      if (this.holding) this.held.push(res);
      else this.answer(res);
    });
  }

  private answer(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"partialSuccess":{}}');
  }
}
