// 3a. Cross-protocol: Anthropic Messages in, the OpenAI lane out (pool `default`), non-stream.
// The mock, baseline and nginx rows pass /v1/messages to the mock's own Anthropic endpoint
// untranslated, so the gateway's ratio includes the cost of translating both ways.
import type { Scenario } from '../scenario.js';
import { anthropicMessagesBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'anthropic-to-openai-nonstream',
  title: 'Anthropic Messages ingress to an OpenAI lane, non-stream (others pass through untranslated)',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: anthropicMessagesBody({ model: 'default', stream: false }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"content"' },
  order: 40,
};
