// The 30 cross-protocol pairs, each briefly: a 50-chunk stream in one protocol (ingress) through
// a lane of another. `--scenario cross-pairs` runs the family; the report adds a matrix of the
// gateway's req/s over the baseline's. The baseline passes each ingress's request to the mock's
// endpoint of that same protocol untranslated, so every pair of an ingress has the same
// baseline: it runs in the ingress's first and last pairs, and each pair of the ingress divides
// by the median of those rows (a baseline group), measured at both ends of the minute its pairs
// take rather than at its start only. One gateway with a lane per protocol on the mock serves
// all 30.
import { PROTOCOLS, protocolChatRequest, type BenchProtocol } from '../request-bodies.js';
import type { GatewayConfigFiles, Scenario } from '../scenario.js';

/** What the end of each protocol's stream carries, for the check before load. */
const STREAM_END: Record<BenchProtocol, string> = {
  openai: '[DONE]',
  responses: 'response.completed',
  anthropic: 'message_stop',
  gemini: 'finishReason',
  bedrock: 'messageStop',
  ollama: '"done":true',
};

/** Where each protocol's provider points on the mock. */
function providerFor(protocol: BenchProtocol, mockUrl: string): Record<string, unknown> {
  const base = protocol === 'openai' || protocol === 'responses' ? `${mockUrl}/v1` : protocol === 'gemini' ? `${mockUrl}/v1beta` : mockUrl;
  return { protocol, base_url: base, auth: { mode: 'none' }, ...(protocol === 'anthropic' ? { headers: { 'anthropic-version': '2023-06-01' } } : {}) };
}

/** Adds a provider, lane `lane-<p>` and pool `pool-<p>` per protocol to the bench config. */
function everyLane({ gateway, providers }: GatewayConfigFiles): void {
  const catalog = providers.providers as Record<string, Record<string, unknown>>;
  const mockBase = String(catalog.mock!.base_url).replace(/\/v1$/, '');
  const models = gateway.models as Record<string, unknown>;
  const pools = gateway.pools as Record<string, unknown>;
  for (const p of PROTOCOLS) {
    catalog[`mock-${p}`] = providerFor(p, mockBase);
    models[`lane-${p}`] = { provider: `mock-${p}`, upstream_model: `mock-${p}` };
    pools[`pool-${p}`] = { members: [{ model: `lane-${p}`, weight: 1 }] };
  }
}

const name = (ingress: BenchProtocol, lane: BenchProtocol): string => `cross-${ingress}-to-${lane}`;

export const scenarios: Scenario[] = PROTOCOLS.flatMap((ingress) => {
  const lanes = PROTOCOLS.filter((l) => l !== ingress);
  return lanes.map(
    (lane, i): Scenario => ({
      name: name(ingress, lane),
      title: `${ingress} ingress to a ${lane} lane, 50-chunk stream`,
      kind: 'throughput',
      request: protocolChatRequest(ingress, { model: `pool-${lane}`, stream: true, chunks: 50 }),
      targets: i === 0 || i === lanes.length - 1 ? ['baseline', 'gateway'] : ['gateway'],
      connections: 64,
      durationSecs: 2,
      expect: { bodyIncludes: STREAM_END[ingress] },
      gatewayConfig: everyLane,
      sharedGateway: 'cross-pairs',
      baselineGroup: `cross-${ingress}`,
      group: 'cross-pairs',
      cell: { row: ingress, column: lane },
      order: 200 + PROTOCOLS.indexOf(ingress) * 5 + i, // matrix order, after the other scenarios
    }),
  );
});
