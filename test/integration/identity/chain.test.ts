// An identity provider in auth.chain against a real IdP (oidc-provider on loopback): the IdP
// token itself is the data-plane credential, verified on every request, and every bad token
// of the list is refused with 401 naming the failed check — a wrong `iss` (a second
// IdP signing with the same keys under another issuer), a wrong `aud` (the same IdP's token
// for another resource server), expired, unsigned (`alg: none`), signed by an unknown key and
// without a bound group. Both the IdP alone (`auth.chain: [corp]`) and the mixed chain
// (`[keys, corp]`) are run, each on its own gateway process, through the `openai` SDK.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import OpenAI from 'openai';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig, type GatewayFiles, type RunningGateway } from '../../helpers/gateway.js';
import { adminClient } from '../../helpers/admin-client.js';
import { foreignSignedToken, startIdp, unsignedToken, type TestIdp } from '../../helpers/oidc-idp.js';
import { SIGNING_KEY } from '../governance/harness.js';

type Outcome = { status: number; message: string };

/** The data-plane answer to `apiKey` through the openai SDK: 200, or the error's status and message. */
async function chat(baseURL: string, apiKey: string): Promise<Outcome> {
  try {
    const answer = await new OpenAI({ apiKey, baseURL, maxRetries: 0 }).chat.completions.create({
      model: 'default',
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.ok(answer.choices.length > 0);
    return { status: 200, message: '' };
  } catch (err) {
    const e = err as { status?: number; message?: string; error?: { message?: string; type?: string } };
    return { status: e.status ?? -1, message: `${e.error?.message ?? ''} | ${e.message ?? ''} | ${e.error?.type ?? ''}` };
  }
}

describe('identity: an IdP in auth.chain verifies the token per request and refuses the bad ones', () => {
  let mock: MockServer;
  let idp: TestIdp;
  let twin: TestIdp;
  const started: Array<{ gw: RunningGateway; files: GatewayFiles }> = [];
  // [name, token, the check the refusal must name]; made once, used on every chain.
  let bad: Array<[string, string, RegExp]> = [];

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    idp = await startIdp({
      users: {
        erin: { groups: ['eng'] },
        frank: { groups: ['eng'] },
        shorty: { groups: ['eng'], ttlSec: 1 },
        carol: { groups: ['sales'] },
        elsewhere: { groups: ['eng'], audience: 'another-api' },
      },
    });
    // Another issuer signing with corp's very keys: its tokens verify under corp's JWKS.
    twin = await startIdp({ users: { erin: { groups: ['eng'] } }, signingKeys: idp.signingKeys() });
    assert.notEqual(twin.issuer, idp.issuer);

    const forged = await foreignSignedToken(idp.issuer);
    const shorty = await idp.token('shorty');
    bad = [
      ['wrong iss', await twin.token('erin'), /issuer check failed/],
      ['wrong aud', await idp.token('elsewhere'), /audience check failed/],
      ['expired', shorty, /expir/],
      [
        'unsigned',
        unsignedToken({ iss: idp.issuer, aud: 'gateway', sub: 'mallory', groups: ['eng'], exp: Math.floor(Date.now() / 1000) + 300 }),
        /signature.*"none"/,
      ],
      ['unknown key', forged, /signature.*key/],
      ['unbound', await idp.token('carol'), /no group binding/],
    ];

    for (const chain of [['corp'], ['keys', 'corp']]) {
      const { config, providers } = mockConfig(mock.url);
      const files = writeConfig(
        {
          ...config,
          auth: { chain, admin_auth: [], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } },
          'identity-providers': { corp: { module: 'oidc', settings: { issuer: idp.issuer, audience: 'gateway', clock_skew: '0s' } } },
          role_bindings: { corp: { eng: { group: 'team-eng' } } },
        },
        providers,
      );
      const gw = await startGateway(files, { workers: 2, env: { GW_TEST_SIGNING_KEY: SIGNING_KEY } });
      started.push({ files, gw });
      const made = await adminClient(gw.adminUrl).POST('/groups', { body: { name: 'team-eng' } as never });
      assert.equal(made.response.status, 201, JSON.stringify(made.error));
    }
    await new Promise((r) => setTimeout(r, 2_100)); // shorty's token (1 s) is now expired
  });

  after(async () => {
    for (const { gw, files } of started) {
      await gw?.stop();
      rmSync(files.dir, { recursive: true, force: true });
    }
    await twin?.close();
    await idp?.close();
    await mock?.close();
  });

  const gateways = [
    { label: 'auth.chain [corp]', at: 0 },
    { label: 'auth.chain [keys, corp]', at: 1 },
  ];

  for (const { label, at } of gateways) {
    it(`${label}: a valid IdP token is accepted on every request without an exchange first`, async () => {
      const base = `${started[at]!.gw.url}/v1`;
      const erin = await idp.token('erin');
      assert.deepEqual(await chat(base, erin), { status: 200, message: '' });
      assert.deepEqual(await chat(base, erin), { status: 200, message: '' }, 'the cached verification');
      // A fresh token of the same identity, and another identity: each verified on its own.
      assert.deepEqual(await chat(base, await idp.token('erin')), { status: 200, message: '' });
      assert.deepEqual(await chat(base, await idp.token('frank')), { status: 200, message: '' });
    });

    it(`${label}: wrong iss, wrong aud, expired, unsigned, unknown key and unbound are refused with 401 naming the check`, async () => {
      const { gw } = started[at]!;
      const base = `${gw.url}/v1`;
      for (const [name, token, check] of bad) {
        const a = await chat(base, token);
        assert.equal(a.status, 401, `${name}: ${a.message}`);
        assert.match(a.message, check, name);
        assert.match(a.message, /authentication_error/, name);
        assert.ok(!a.message.includes(token), `${name}: the token is never echoed`);
        // Refused again: a refusal is not cached as an acceptance.
        assert.equal((await chat(base, token)).status, 401, `${name} (again)`);
      }
      for (const [, token] of bad) assert.ok(!gw.logs().includes(token), 'no refused token in a log line');
    });
  }

  it('auth.chain [corp]: a bearer that is not an IdP token gets the IdP check, not a key check', async () => {
    const a = await chat(`${started[0]!.gw.url}/v1`, 'sk-not-a-token');
    assert.equal(a.status, 401, a.message);
    assert.match(a.message, /identity-provider token was refused: the token is not a JWT/);
  });
});
