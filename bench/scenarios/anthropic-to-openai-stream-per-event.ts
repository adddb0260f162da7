// 3c. Scenario 3b with the upstream writing one event per HTTP chunk and usage on the finish
// chunk (the mock's chunking=event usage_on_last=true): translation per upstream chunk.
import type { Scenario } from '../scenario.js';
import { anthropicMessagesBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'anthropic-to-openai-stream-per-event',
  title: 'Anthropic Messages ingress to an OpenAI lane, 50-chunk stream written one event per HTTP chunk (others pass through untranslated)',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: anthropicMessagesBody({ model: 'default', stream: true, chunks: 50, mock: 'chunking=event usage_on_last=true' }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: 'message_stop' },
  order: 51,
};
