// 4g. Added latency of a socket gate at low load: scenario 4 (added-latency: one connection,
// requests back to back) through a pool with one socket gate that orders members. Run beside
// added-latency (`--scenario added-latency,added-latency-gate`): the gateway row minus
// added-latency's is one gate round trip when nothing queues (target: p50 under 100 µs).
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { useOrderingGate } from '../gated-gateway.js';

export const scenario: Scenario = {
  name: 'added-latency-gate',
  title: 'Added latency at low load with one socket gate that orders members',
  kind: 'added-latency',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['mock', 'gateway'],
  connections: 1,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: useOrderingGate,
  reference: 'added-latency',
  order: 91,
};
