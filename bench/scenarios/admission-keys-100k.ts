// Admission as keys grow: the governed request with 100000 keys in the store, the table and
// shared memory (48 bytes per key). Compare req/s and peak RSS with the other key counts.
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';
import { BENCH_SECRET, SHARED_BYTES_PER_KEY, governGateway } from '../governed-gateway.js';

const KEYS = 100000;

export const scenario: Scenario = {
  name: 'admission-keys-100k',
  title: `Governed admission with ${KEYS.toLocaleString('en')} keys (${SHARED_BYTES_PER_KEY} B shared memory per key)`,
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_SECRET}` },
    body: openaiChatBody({ model: 'default', stream: false }),
  },
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: (files) => governGateway(files, KEYS - 1),
  order: 130,
};
