// 1 with an identity provider in auth.chain: the same request as openai-nonstream-governed,
// made with an IdP token verified per request (from the verified-token cache after the first),
// its identity's group limits and metering on. Run beside openai-nonstream-governed ([keys]).
import type { Scenario } from '../scenario.js';
import { openaiChatBody } from '../request-bodies.js';
import { BENCH_IDP_TOKEN, identityGateway } from '../bench-idp.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-oidc',
  title: 'OpenAI chat, non-stream, through a pool, with an IdP token in auth.chain (cached verification)',
  kind: 'throughput',
  request: {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_IDP_TOKEN}` },
    body: openaiChatBody({ model: 'default', stream: false }),
  },
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  gatewayConfig: (files) => identityGateway(files),
  order: 12,
};
