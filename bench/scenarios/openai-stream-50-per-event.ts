// 2b. Scenario 2a with the habits of OpenAI-compatible servers that flush per token: every SSE
// event is its own HTTP chunk (the mock's chunking=event, back to back) and usage rides on the
// finish chunk (usage_on_last). The relay's cost per upstream chunk, whatever the chunking.
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'openai-stream-50-per-event',
  title: 'OpenAI chat, 50-chunk stream written one event per HTTP chunk, usage on the finish chunk',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: openaiChatBody({ model: 'default', stream: true, chunks: 50, mock: 'chunking=event usage_on_last=true' }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: 'data: [DONE]' },
  order: 21,
};
