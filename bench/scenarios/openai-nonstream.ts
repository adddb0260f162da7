// 1. Non-stream OpenAI chat, same protocol, through a pool (the gateway's `default` pool).
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'openai-nonstream',
  title: 'OpenAI chat, non-stream, same protocol, through a pool',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: openaiChatBody({ model: 'default', stream: false }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  order: 10,
};
