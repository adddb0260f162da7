// Header hygiene (issue 15): an upstream's answer crosses to the caller with only the headers
// the vendor SDKs read (retry-after, retry-after-ms, x-should-retry; x-amzn-errortype on
// Bedrock), on an error relayed as is as on a success; set-cookie, organisation ids, the
// provider account's rate-limit headers and request ids stay behind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CannedUpstream } from '../../helpers/canned-upstream.js';
import { minimalRequest, rawPost } from '../../helpers/clients/raw.js';
import { startGateway, writeConfig, type RunningGateway } from '../../helpers/gateway.js';
import type { ProtocolName } from '../../../src/shared/model/types.js';

const NOISE: Record<string, string> = {
  'set-cookie': 'session=upstream-session-cookie; Path=/',
  'openai-organization': 'org-gateway-account',
  'openai-project': 'proj_gateway',
  'anthropic-organization-id': 'org-anthropic-account',
  'x-ratelimit-remaining-requests': '4999',
  'x-ratelimit-limit-tokens': '800000',
  'anthropic-ratelimit-requests-remaining': '49',
  'x-request-id': 'req_upstream_123',
  'request-id': 'req_upstream_456',
  'x-amzn-requestid': 'aws-req-789',
  'cf-ray': '8abc-SJC',
  via: 'upstream-proxy',
};

const ALLOWED: Record<string, Record<string, string>> = {
  openai: { 'retry-after': '7', 'retry-after-ms': '7000', 'x-should-retry': 'false' },
  anthropic: { 'retry-after': '7', 'retry-after-ms': '7000', 'x-should-retry': 'false' },
  bedrock: { 'retry-after': '7', 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
};

const ERROR_BODY: Record<string, string> = {
  openai: '{"error":{"message":"bad thing","type":"invalid_request_error","param":null,"code":null}}',
  anthropic: '{"type":"error","error":{"type":"invalid_request_error","message":"bad thing"}}',
  bedrock: '{"message":"bad thing"}',
};

const OK_BODY: Record<string, string> = {
  openai:
    '{"id":"c1","object":"chat.completion","created":1,"model":"up","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}',
  anthropic:
    '{"id":"m1","type":"message","role":"assistant","model":"up","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}',
  bedrock:
    '{"output":{"message":{"role":"assistant","content":[{"text":"hi"}]}},"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}',
};

describe('header hygiene: only the SDK-read headers cross from an upstream', () => {
  const upstreams = new Map<string, CannedUpstream>();
  let gw: RunningGateway;
  const protocols: ProtocolName[] = ['openai', 'anthropic', 'bedrock'];

  before(async () => {
    const providers: Record<string, unknown> = {};
    const models: Record<string, unknown> = {};
    const pools: Record<string, unknown> = {};
    for (const p of protocols) {
      const up = await CannedUpstream.start();
      upstreams.set(p, up);
      const base = `http://127.0.0.1:${up.port}`;
      providers[`up-${p}`] = {
        protocol: p,
        base_url: p === 'openai' ? `${base}/v1` : base,
        auth: { mode: 'none' },
        ...(p === 'anthropic' ? { headers: { 'anthropic-version': '2023-06-01' } } : {}),
      };
      models[`lane-${p}`] = { provider: `up-${p}`, upstream_model: 'up' };
      pools[`pool-${p}`] = { members: [{ model: `lane-${p}` }] };
    }
    gw = await startGateway(
      writeConfig({ auth: { chain: [], admin_auth: [] }, models, pools, store: { module: 'memory' }, config: { locked: true } }, providers),
    );
  });
  after(async () => {
    await gw?.stop();
    for (const up of upstreams.values()) await up.close();
  });

  for (const p of protocols) {
    it(`${p}: a relayed upstream error keeps only ${Object.keys(ALLOWED[p]!).join(', ')}`, async () => {
      upstreams.get(p)!.next = { status: 400, headers: { 'content-type': 'application/json', ...NOISE, ...ALLOWED[p]! }, body: ERROR_BODY[p]! };
      const r = minimalRequest(p, `pool-${p}`, 'hello', false);
      const res = await rawPost(`${gw.url}${r.path}`, r.body);
      assert.equal(res.status, 400, res.body.toString());
      assert.equal(res.body.toString(), ERROR_BODY[p], 'the vendor body, as is');
      for (const [name, value] of Object.entries(ALLOWED[p]!)) assert.equal(res.headers[name], value, `${name} crosses`);
      for (const name of Object.keys(NOISE)) assert.equal(res.headers[name], undefined, `${name} must not cross`);
    });

    it(`${p}: a success carries none of the upstream's headers`, async () => {
      upstreams.get(p)!.next = { status: 200, headers: { 'content-type': 'application/json', ...NOISE, ...ALLOWED[p]! }, body: OK_BODY[p]! };
      const r = minimalRequest(p, `pool-${p}`, 'hello', false);
      const res = await rawPost(`${gw.url}${r.path}`, r.body);
      assert.equal(res.status, 200, res.body.toString());
      for (const name of [...Object.keys(NOISE), ...Object.keys(ALLOWED[p]!)]) assert.equal(res.headers[name], undefined, `${name} must not cross`);
    });
  }
});
