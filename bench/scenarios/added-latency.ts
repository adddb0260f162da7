// 4. Added latency at low load: one connection, requests back to back. Each row's p50/p99
// minus the mock's is what the hop adds when nothing queues.
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'added-latency',
  title: 'Added latency at low load: sequential non-stream requests on one connection',
  kind: 'added-latency',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: openaiChatBody({ model: 'default', stream: false }),
  },
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 1,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  order: 90,
};
