// 1 with an identity provider in auth.chain: the same request as openai-nonstream-governed,
// made with an IdP token verified per request (from the verified-token cache after the first),
// its identity's group limits and metering on. Run beside openai-nonstream-governed ([keys]).
import type { Scenario } from '../scenario.js';
import { OPENAI_NONSTREAM_REQUEST } from '../request-bodies.js';
import { BENCH_IDP_TOKEN, identityGateway } from '../bench-idp.js';

export const scenario: Scenario = {
  name: 'openai-nonstream-oidc',
  title: 'OpenAI chat, non-stream, through a pool, with an IdP token in auth.chain (cached verification)',
  kind: 'throughput',
  request: { ...OPENAI_NONSTREAM_REQUEST, headers: { ...OPENAI_NONSTREAM_REQUEST.headers, authorization: `Bearer ${BENCH_IDP_TOKEN}` } },
  targets: ['gateway'],
  connections: 64,
  durationSecs: 5,
  expect: { bodyIncludes: '"choices"' },
  governed: true,
  gatewayConfig: (files) => identityGateway(files),
  order: 12,
};
