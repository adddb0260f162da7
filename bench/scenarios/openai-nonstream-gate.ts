// 1g. Scenario 1 (openai-nonstream) with one socket gate hook that orders the pool's members
// (the example gate of examples/hooks/, over a unix socket). Its reference is openai-nonstream:
// run both in one invocation and the report gives req/s and the added p50/p99 of a gate round
// trip under load (`--scenario openai-nonstream,openai-nonstream-gate`); added-latency-gate
// gives the same at one connection, where nothing queues.
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { useOrderingGate } from '../gated-gateway.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-gate',
  title: 'OpenAI chat, non-stream, through a pool with one socket gate that orders members',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: useOrderingGate,
  reference: 'openai-nonstream',
  order: 11,
};
