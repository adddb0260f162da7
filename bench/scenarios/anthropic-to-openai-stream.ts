// 3b. Cross-protocol: Anthropic Messages in, the OpenAI lane out, 50-chunk stream translated
// chunk by chunk. The mock, baseline and nginx rows pass the Anthropic stream untranslated.
import type { Scenario } from '../scenario.js';
import { anthropicMessagesBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'anthropic-to-openai-stream',
  title: 'Anthropic Messages ingress to an OpenAI lane, 50-chunk stream (others pass through untranslated)',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: anthropicMessagesBody({ model: 'default', stream: true, chunks: 50 }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: 'message_stop' },
  order: 50,
};
