// 1. Non-stream OpenAI chat, same protocol, through a pool (the gateway's `default` pool).
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'openai-nonstream',
  title: 'OpenAI chat, non-stream, same protocol, through a pool',
  kind: 'throughput',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  order: 10,
};
