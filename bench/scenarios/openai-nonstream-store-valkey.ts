// Scenario 1 on the valkey store (issue 13): openai-nonstream's request through the open front door,
// metering on, usage flushed to the store every 5 s. Run the four store variants in one run:
// nothing on the request path touches the store, so their rows should match.
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { meteredOpenGateway } from '../governed-gateway.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-store-valkey',
  title: 'OpenAI chat, non-stream, through a pool, metering on, valkey store',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: (files) => meteredOpenGateway(files, 'valkey'),
  order: 16,
};
