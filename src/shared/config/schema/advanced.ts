// Process and upstream-client tuning.
import { Type } from '@sinclair/typebox';
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_JSON_MEMBERS } from '../../protocols/framing/json-limits.js';

const MiB = 1024 * 1024;

export const AdvancedSection = Type.Object(
  {
    worker_threads: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1024,
        description: 'Data-plane worker threads; default TOKIO_WORKER_THREADS when set (the fallback), else one per available core.',
      }),
    ),
    upstream_http1_only: Type.Boolean({ default: false, description: 'Speak only HTTP/1.1 to upstreams.' }),
    upstream_h2_prior_knowledge: Type.Boolean({
      default: false,
      description: 'Speak HTTP/2 to upstreams without negotiation (h2c prior knowledge). Conflicts with upstream_http1_only.',
    }),
    max_inflight_per_worker: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description:
          "Requests one worker holds at once; past this the data plane sheds with 503 and Retry-After in the caller's protocol. Default: the worker heap limit / 1 MiB, within 256..8192.",
      }),
    ),
    max_body_bytes: Type.Integer({ minimum: 1, default: 10 * MiB, description: 'Largest accepted request body, in bytes.' }),
    max_json_depth: Type.Integer({
      minimum: 1,
      maximum: 1024,
      default: DEFAULT_MAX_JSON_DEPTH,
      description:
        'Deepest nesting of arrays and objects a request body may have (the body itself is level 1); deeper is refused with 400 before it is parsed.',
    }),
    max_json_members: Type.Integer({
      minimum: 1,
      default: DEFAULT_MAX_JSON_MEMBERS,
      description: 'Object members plus array elements a request body may hold in all; more is refused with 400 before it is parsed.',
    }),
    translate_body_cap_bytes: Type.Integer({
      minimum: 1,
      default: 10 * MiB,
      description: 'Same-protocol non-stream responses larger than this stream through unparsed and are billed zero tokens.',
    }),
    shutdown_drain_secs: Type.Number({ minimum: 0, default: 30, description: 'How long a graceful shutdown waits for in-flight requests.' }),
    upstream_connections: Type.Integer({ minimum: 1, default: 1024, description: 'Idle keep-alive connections per upstream origin.' }),
    idle_spin_us: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description:
          "After I/O, how long (µs) a worker polls for its next event before its thread may sleep, while most recent events (nine in ten) came within this of each other. Takes the kernel wake-up off a request's path for latency-critical deployments, at the price of a core that reads busy. Default 0 (off); 1000 is the tested window.",
      }),
    ),
    upstream_timeout_secs: Type.Number({
      exclusiveMinimum: 0,
      default: 300,
      description:
        'Timeout of one upstream HTTP request, in seconds: the longest wait for the response head, and the longest the body may stay quiet between chunks.',
    }),
  },
  { additionalProperties: false, default: {}, description: 'Advanced tuning.' },
);
