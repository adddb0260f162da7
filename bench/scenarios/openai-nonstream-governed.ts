// 1 with governance: the same request as openai-nonstream, made with a virtual key whose group
// has requests/tokens/budget limits, metering on. Run beside openai-nonstream to compare.
import type { Scenario } from '../scenario.js';
import { GOVERNED_REQUEST, governGateway } from '../governed-gateway.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-governed',
  title: 'OpenAI chat, non-stream, through a pool, with a virtual key, group limits and metering',
  kind: 'throughput',
  request: GOVERNED_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig: (files) => governGateway(files),
  order: 11,
};
