// 1 with OpenTelemetry traces on (issue 48): the same request as openai-nonstream, with an
// `export: module: otlp` sending to the mock's OTLP sink (POST /v1/traces, answered at once, on
// the mock's cores), at sample_ratio 1.0 (every request: a server and a client span each) and
// 0.01. Run beside openai-nonstream (tracing off: its reference) in one go:
// `--scenario openai-nonstream,openai-nonstream-traced-1,openai-nonstream-traced-001 --repeats 1`.
// The req/s and CPU/req differences are the exporter's cost; a shed span would show in
// gateway_trace_spans_dropped_total.
import type { GatewayConfigFiles, Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';

function traced(sampleRatio: number): (files: GatewayConfigFiles) => void {
  return (files) => {
    const catalog = files.providers.providers as Record<string, { base_url: string }>;
    const mockUrl = catalog.mock!.base_url.replace(/\/v1$/, '');
    files.gateway.export = { traces: { module: 'otlp', settings: { endpoint: `${mockUrl}/v1/traces`, sample_ratio: sampleRatio } } };
  };
}

const row = (name: string, ratio: number, order: number): Scenario => ({
  name,
  title: `OpenAI chat, non-stream, through a pool, traces exported over OTLP at sample_ratio ${ratio}`,
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: traced(ratio),
  reference: 'openai-nonstream',
  namedOnly: true,
  order,
});

export const scenarios: Scenario[] = [row('openai-nonstream-traced-1', 1, 13), row('openai-nonstream-traced-001', 0.01, 14)];
