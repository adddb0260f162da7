// How the gateway authenticates upstream, end to end through the real process: the
// provider's own key (bearer), a token-minting mode against the mock's OAuth2 endpoint, a
// provider whose key is missing (401 on use), and `upstream_credentials: passthrough`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { MockServer } from '../../src/mock/server.js';
import type { RunningGateway } from '../helpers/gateway.js';
import { eventually, startStack, type Stack } from '../helpers/clients/stack.js';

interface LastRequest {
  headers: Record<string, string>;
}

async function lastRequest(mock: MockServer): Promise<LastRequest> {
  const res = await request(`${mock.url}/mock/last-request`);
  return (await res.body.json()) as LastRequest;
}

async function chat(gw: RunningGateway, model: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await request(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { status: res.statusCode, body: await res.body.text() };
}

/** A mock that wants a credential and a gateway with four lanes on it, one per way to authenticate. */
function startWith(upstreamCredentials: 'own' | 'passthrough'): Promise<Stack> {
  const lane = (provider: string) => ({ provider, upstream_model: 'up' });
  return startStack({
    mock: { require_auth: true },
    env: ENV,
    build: (mockUrl) => ({
      config: {
        auth: { chain: [], admin_auth: [], upstream_credentials: upstreamCredentials },
        models: { bearer: lane('bearer'), minted: lane('minted'), keyless: lane('keyless'), open: lane('open') },
        pools: {
          bearer: { members: [{ model: 'bearer' }] },
          minted: { members: [{ model: 'minted' }] },
          keyless: { members: [{ model: 'keyless' }] },
          open: { members: [{ model: 'open' }] },
        },
      },
      providers: {
        bearer: { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'bearer', key: { env: 'GW_TEST_PROVIDER_KEY' } } },
        minted: {
          protocol: 'openai',
          base_url: `${mockUrl}/v1`,
          auth: {
            mode: 'oauth-client-credentials',
            token_url: `${mockUrl}/oauth2/token`,
            client_id: 'gw',
            client_secret: { env: 'GW_TEST_CLIENT_SECRET' },
            scope: 'models',
          },
        },
        keyless: { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'bearer', key: { env: 'GW_TEST_EMPTY_KEY' } } },
        open: { protocol: 'openai', base_url: `${mockUrl}/v1`, auth: { mode: 'none' } },
      },
    }),
  });
}

const ENV = { GW_TEST_PROVIDER_KEY: 'sk-provider-secret-123', GW_TEST_CLIENT_SECRET: 'client-secret-456', GW_TEST_EMPTY_KEY: '' };

describe('upstream credentials', () => {
  let stack: Stack;
  before(async () => {
    stack = await startWith('own');
  });
  after(() => stack?.close());

  it('signs with the provider key (bearer)', async () => {
    const r = await chat(stack.gateway, 'bearer');
    assert.equal(r.status, 200, r.body);
    assert.equal((await lastRequest(stack.mock)).headers.authorization, 'Bearer sk-provider-secret-123');
  });

  it('mints a client-credentials token in the background and uses it', async () => {
    assert.ok(await eventually(() => stack.mock.stats().tokens_minted > 0, 5_000), 'a token was minted at boot, before any request');
    let r = await chat(stack.gateway, 'minted');
    for (let i = 0; i < 20 && r.status === 401; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await chat(stack.gateway, 'minted');
    }
    assert.equal(r.status, 200, r.body);
    assert.match((await lastRequest(stack.mock)).headers.authorization ?? '', /^Bearer \S+/);
  });

  it('answers 401 for a provider whose key is empty, and warned at boot', async () => {
    const r = await chat(stack.gateway, 'keyless');
    assert.equal(r.status, 401);
    assert.match(r.body, /no upstream credential/);
    assert.match(stack.gateway.logs(), /keyless/);
    assert.doesNotMatch(stack.gateway.logs(), /sk-provider-secret-123|client-secret-456/, 'no secret in the logs');
  });
});

describe('upstream_credentials: passthrough', () => {
  let stack: Stack;
  before(async () => {
    stack = await startWith('passthrough');
  });
  after(() => stack?.close());

  it("forwards the caller's credential instead of the provider's", async () => {
    const r = await chat(stack.gateway, 'bearer', { authorization: 'Bearer caller-own-key' });
    assert.equal(r.status, 200, r.body);
    assert.equal((await lastRequest(stack.mock)).headers.authorization, 'Bearer caller-own-key');
  });

  it('sends no credential when the caller has none (the upstream refuses)', async () => {
    const r = await chat(stack.gateway, 'open');
    assert.equal(r.status, 401);
  });
});
