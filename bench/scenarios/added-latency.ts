// 4. Added latency at low load: one connection, requests back to back. Each row's p50/p99
// minus the mock's is what the hop adds when nothing queues.
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';

export const scenario: Scenario = {
  name: 'added-latency',
  title: 'Added latency at low load: sequential non-stream requests on one connection',
  kind: 'added-latency',
  request: OPENAI_NONSTREAM_REQUEST,
  targets: ['mock', 'baseline', 'nginx', 'gateway'],
  connections: 1,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  order: 90,
};
