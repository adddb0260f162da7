// Telemetry export instances: `module: prometheus` mounts /metrics (needs settings.buffer_seconds);
// `module: otlp` sends OpenTelemetry traces over OTLP/HTTP (settings: OtlpExportSettings, checked
// at load). An instance's `headers` sit beside `settings`, not in it, so their values are found
// and resolved like every other secret (settings stay an opaque map).
import { Type } from '@sinclair/typebox';
import { SecretOrLiteral } from './secret-ref.js';

const ExportInstance = Type.Object(
  {
    module: Type.String({
      minLength: 1,
      description:
        'Export module: `prometheus` (mounts /metrics; needs `settings.buffer_seconds`) or `otlp` (OpenTelemetry traces over OTLP/HTTP; needs `settings.endpoint`).',
    }),
    settings: Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Module settings.' }),
    headers: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), SecretOrLiteral('A header value sent with every export (prefer a secret reference for a credential).'), {
        description: "Headers sent with every OTLP export (e.g. a collector's API key); never shown.",
      }),
    ),
  },
  { additionalProperties: true, description: 'An export instance.' },
);

export const ExportSection = Type.Record(Type.String({ minLength: 1 }), ExportInstance, {
  default: {},
  description: 'Export instances by name. Without a `prometheus` instance, /metrics is 404; without an `otlp` one, nothing is traced.',
});

/** `settings` of a `module: otlp` instance (checked at load; defaults filled in at compile). */
export const OtlpExportSettings = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      description: "The collector's OTLP/HTTP traces URL, e.g. http://127.0.0.1:4318/v1/traces (a URL with no path gets /v1/traces).",
    }),
    sample_ratio: Type.Number({
      minimum: 0,
      maximum: 1,
      default: 1,
      description: "Share of requests traced when the caller sent no traceparent; a caller's traceparent decides by its sampled flag (parent-based).",
    }),
    include_prompt: Type.Boolean({
      default: false,
      description:
        "Opt in to the request's messages on the server span (gen_ai.input.messages). Off: no prompt leaves the gateway. Completions are never exported.",
    }),
    max_queue_spans: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 2048,
      description: 'Spans a worker holds for export; past this, spans are shed and counted (gateway_trace_spans_dropped_total{reason="queue_full"}).',
    }),
    max_batch_spans: Type.Integer({ minimum: 1, maximum: 100_000, default: 512, description: 'Spans per export request.' }),
    flush_interval_ms: Type.Integer({
      minimum: 10,
      maximum: 60_000,
      default: 1000,
      description: 'How often a worker sends what it holds (sooner when a batch fills).',
    }),
    timeout_ms: Type.Integer({
      minimum: 100,
      maximum: 120_000,
      default: 10_000,
      description: 'Deadline of one export request; a failed export\'s spans are counted (reason="export_failed").',
    }),
    service_name: Type.String({ minLength: 1, default: 'llm-gateway', description: "The resource's service.name." }),
  },
  { additionalProperties: false, description: 'Settings of an OTLP trace export.' },
);
