// Request-log sinks: one record per finished request, to a webhook and/or a rotating JSON-lines
// file, written by the main thread (never on a worker), each with a bounded in-flight pool past
// which records are shed and counted (docs/hooks.md, "Request logs").
import { Type } from '@sinclair/typebox';
import { SecretOrLiteral } from './secret-ref.js';

const IncludePrompt = Type.Boolean({ default: false, description: 'Opt in to the request body (the prompt) in each record. Off: no prompt is ever logged.' });

const WebhookLogSink = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Each record is POSTed here as JSON.' }),
    secret: Type.Optional(SecretOrLiteral('HMAC-SHA256 key that signs each delivery, as hook webhooks are signed (never shown).')),
    max_inflight: Type.Integer({
      minimum: 1,
      maximum: 10_000,
      default: 64,
      description: 'Deliveries in flight; past this, records are shed (gateway_webhook_logs_dropped_total).',
    }),
    timeout_ms: Type.Integer({ minimum: 1, maximum: 60_000, default: 5_000, description: 'Deadline of one delivery.' }),
    include_prompt: IncludePrompt,
  },
  { additionalProperties: false, description: 'The webhook request-log sink.' },
);

const FileLogSink = Type.Object(
  {
    path: Type.String({ minLength: 1, description: "JSON-lines file; relative paths resolve against the config file's folder." }),
    max_bytes: Type.Integer({
      minimum: 1024,
      default: 100 * 1024 * 1024,
      description: 'Rotate when the file would grow past this: file -> file.1 -> ... -> file.<keep>.',
    }),
    keep: Type.Integer({ minimum: 1, maximum: 100, default: 5, description: 'Rotated files kept.' }),
    max_pending: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 10_000,
      description: 'Records queued for the disk; past this, records are shed (gateway_file_logs_dropped_total).',
    }),
    include_prompt: IncludePrompt,
  },
  { additionalProperties: false, description: 'The rotating file request-log sink.' },
);

export const LogsSection = Type.Object(
  {
    webhook: Type.Optional(WebhookLogSink),
    file: Type.Optional(FileLogSink),
  },
  { additionalProperties: false, default: {}, description: 'Request-log sinks.' },
);
