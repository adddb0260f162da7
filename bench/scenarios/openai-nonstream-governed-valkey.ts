// 1 with governance on the valkey store (issue 13): openai-nonstream-governed's key, group limits
// and metering, the keys in valkey, governance counters reconciled with the fleet every flush.
// Run beside openai-nonstream-governed (sqlite).
import type { Scenario } from '../scenario.js';
import { GOVERNED_REQUEST, governGateway } from '../governed-gateway.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-governed-valkey',
  title: 'OpenAI chat, non-stream, through a pool, with a virtual key, group limits and metering, valkey store',
  kind: 'throughput',
  request: GOVERNED_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: (files) => governGateway(files, 0, 'valkey'),
  order: 17,
};
