// 2b. OpenAI chat, 500-chunk SSE stream: the per-chunk cost dominates.
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'openai-stream-500',
  title: 'OpenAI chat, 500-chunk stream, same protocol, through a pool',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: openaiChatBody({ model: 'default', stream: true, chunks: 500 }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: 'data: [DONE]' },
  order: 30,
};
