// 2a. OpenAI chat, 50-chunk SSE stream, same protocol, through a pool.
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'openai-stream-50',
  title: 'OpenAI chat, 50-chunk stream, same protocol, through a pool',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: openaiChatBody({ model: 'default', stream: true, chunks: 50 }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: 'data: [DONE]' },
  order: 20,
};
