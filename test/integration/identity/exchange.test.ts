// Identity end to end against a real IdP (oidc-provider on loopback, issuing real signed
// tokens): POST /auth/token gives a deterministic per-identity key whose group is provisioned
// from the team's child_default (limits enforced), Refresh kills the old key, every bad token
// is refused naming the check, a JWKS key rotation is picked up; the same provider in
// auth.chain accepts IdP tokens per request; admin scopes come from role_bindings capped by
// max_admin_scope; a second IdP over TLS is trusted through ca_cert_pem only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { mockConfig, startGateway, writeConfig, type GatewayFiles, type RunningGateway } from '../../helpers/gateway.js';
import { adminClient } from '../../helpers/admin-client.js';
import { foreignSignedToken, startIdp, unsignedToken, type TestIdp } from '../../helpers/oidc-idp.js';
import { SIGNING_KEY } from '../governance/harness.js';

const TLS = join(process.cwd(), 'test', 'fixtures', 'tls');
const CA_PEM = readFileSync(join(TLS, 'ca.pem'), 'utf8');

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

describe('identity: token exchange, auth.chain and admin scopes with a real IdP', () => {
  let mock: MockServer;
  let idp: TestIdp;
  let partner: TestIdp;
  let gw: RunningGateway;
  let files: GatewayFiles;
  const seen: string[] = [];

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    idp = await startIdp({
      users: {
        alice: { groups: ['eng'] },
        bob: { groups: ['other', 'eng'] },
        carol: { groups: ['sales'] },
        dave: { groups: ['eng'] },
        shorty: { groups: ['eng'], ttlSec: 1 },
        opsy: { groups: ['ops'] },
        audrey: { groups: ['auditors', 'eng'] },
      },
    });
    partner = await startIdp({
      audience: 'partner-gw',
      users: { pat: { groups: ['eng', 'ops'] } },
      tls: { cert: readFileSync(join(TLS, 'server.pem'), 'utf8'), key: readFileSync(join(TLS, 'server-key.pem'), 'utf8') },
    });
    const { config, providers } = mockConfig(mock.url);
    files = writeConfig(
      {
        ...config,
        auth: { chain: ['keys', 'corp'], admin_auth: ['corp', 'partner'], upstream_credentials: 'own', signing_key: { env: 'GW_TEST_SIGNING_KEY' } },
        'identity-providers': {
          corp: { module: 'oidc', settings: { issuer: idp.issuer, audience: 'gateway', clock_skew: '0s' }, max_admin_scope: 'full' },
          // Same IdP, wrong expectations: each refuses for its own reason.
          wrongiss: { module: 'oidc', settings: { issuer: 'http://127.0.0.1:9/not-the-issuer', audience: 'gateway', jwks_url: `${idp.issuer}/jwks` } },
          wrongaud: { module: 'oidc', settings: { issuer: idp.issuer, audience: 'somebody-else' } },
          partner: { module: 'oidc', settings: { issuer: partner.issuer, audience: 'partner-gw', ca_cert_pem: CA_PEM }, max_admin_scope: 'none' },
        },
        role_bindings: {
          corp: { eng: { group: 'team-eng' }, ops: { admin_scope: 'full' }, auditors: { admin_scope: 'read-only' } },
          wrongiss: { eng: { group: 'team-eng' } },
          wrongaud: { eng: { group: 'team-eng' } },
          partner: { eng: { group: 'team-eng' }, ops: { admin_scope: 'full' } },
        },
      },
      providers,
    );
    gw = await startGateway(files, { workers: 2, env: { GW_TEST_SIGNING_KEY: SIGNING_KEY } });
    // The team, set up by an IdP principal with the full scope.
    const admin = adminClient(gw.adminUrl, { bearer: await idp.token('opsy') });
    const made = await admin.POST('/groups', {
      body: { name: 'team-eng', child_default: { limits: [{ metric: 'requests', window: 'hour', max: 2 }] } } as never,
    });
    assert.equal(made.response.status, 201, JSON.stringify(made.error));
  });

  after(async () => {
    await gw?.stop();
    await idp?.close();
    await partner?.close();
    await mock?.close();
    if (files !== undefined) rmSync(files.dir, { recursive: true, force: true });
  });

  async function exchange(body: Record<string, unknown>, authorization?: string): Promise<Answer> {
    const res = await request(`${gw.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    seen.push(text);
    return { status: res.statusCode, body: JSON.parse(text), text };
  }

  function chat(apiKey: string) {
    return new OpenAI({ apiKey, baseURL: `${gw.url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: 'default',
      messages: [{ role: 'user', content: 'hi' }],
    });
  }

  async function status(p: Promise<unknown>): Promise<number> {
    try {
      await p;
      return 200;
    } catch (err) {
      return (err as { status?: number }).status ?? -1;
    }
  }

  it('signing in again gives the same key; its group comes from child_default and its limits hold', async () => {
    const token = await idp.token('alice');
    const first = await exchange({ provider: 'corp', token });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.group, 'user:alice@team-eng');
    assert.deepEqual(first.body.allowed_pools, ['*']);
    // The token as a bearer, provider named in the body: the same key.
    const second = await exchange({ provider: 'corp' }, `Bearer ${await idp.token('alice')}`);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.key, first.body.key);
    assert.equal(second.body.key_id, first.body.key_id);

    const admin = adminClient(gw.adminUrl, { bearer: await idp.token('opsy'), secrets: [first.body.key] });
    const group = await admin.GET('/groups/{name}', { params: { path: { name: 'user:alice@team-eng' } } });
    assert.equal(group.response.status, 200);
    assert.equal((group.data as { parent: string }).parent, 'team-eng');

    const answer = await chat(first.body.key);
    assert.ok(answer.choices.length > 0);
    assert.equal(await status(chat(first.body.key)), 200);
    assert.equal(await status(chat(first.body.key)), 429, 'the third request in the hour is over the child_default limit');
  });

  it('Refresh (rotate: true) kills the old key and the new one works', async () => {
    const old = await exchange({ provider: 'corp', token: await idp.token('bob') });
    assert.equal(old.status, 200, old.text);
    assert.equal(old.body.group, 'user:bob@team-eng', 'the first bound group in the claim wins');
    const fresh = await exchange({ provider: 'corp', token: await idp.token('bob'), rotate: true });
    assert.equal(fresh.status, 200, fresh.text);
    assert.notEqual(fresh.body.key, old.body.key);
    assert.equal(fresh.body.key_id, old.body.key_id);
    assert.equal(await status(chat(old.body.key)), 401);
    assert.equal(await status(chat(fresh.body.key)), 200);
    const again = await exchange({ provider: 'corp', token: await idp.token('bob') });
    assert.equal(again.body.key, fresh.body.key);
  });

  it('refuses a wrong iss, a wrong aud, an expired, an unsigned, a foreign-signed and an unbound token, naming the check', async () => {
    const alice = await idp.token('alice');
    const shorty = await idp.token('shorty');
    const forged = await foreignSignedToken(idp.issuer);
    const unsigned = unsignedToken({ iss: idp.issuer, aud: 'gateway', sub: 'mallory', groups: ['eng'], exp: Math.floor(Date.now() / 1000) + 300 });
    await new Promise((r) => setTimeout(r, 2_100)); // shorty's token (1 s) is now expired
    const cases: Array<[string, string, RegExp]> = [
      ['wrongiss', alice, /issuer/],
      ['wrongaud', alice, /audience/],
      ['corp', shorty, /expir/],
      ['corp', unsigned, /signature.*"none"/],
      ['corp', forged, /signature.*key/],
      ['corp', await idp.token('carol'), /no group binding/],
    ];
    for (const [provider, token, check] of cases) {
      const a = await exchange({ provider, token });
      assert.equal(a.status, 401, `${provider}: ${a.text}`);
      assert.match(a.body.error.message, check);
      assert.equal(a.body.error.type, 'authentication_error');
      assert.ok(!a.text.includes(token), 'the token is never echoed');
      // The same tokens straight on the data plane under auth.chain [keys, corp].
      if (provider === 'corp') {
        const res = await request(`${gw.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }),
        });
        const text = await res.body.text();
        assert.equal(res.statusCode, 401, text);
        assert.match((JSON.parse(text) as { error: { message: string } }).error.message, check);
        assert.ok(!text.includes(token));
      }
    }
  });

  it('auth.chain [keys, corp]: an IdP token is accepted per request with no key issued', async () => {
    const token = await idp.token('dave');
    assert.equal(await status(chat(token)), 200);
    assert.equal(await status(chat(token)), 200, 'the cached verification');
  });

  it('a JWKS key rotation at the IdP is picked up', async () => {
    idp.rotateKeys();
    await new Promise((r) => setTimeout(r, 2_100)); // past the refresh cooldown
    const a = await exchange({ provider: 'corp', token: await idp.token('dave') });
    assert.equal(a.status, 200, a.text);
  });

  it('an IdP over TLS is trusted through ca_cert_pem', async () => {
    const a = await exchange({ provider: 'partner', token: await partner.token('pat') });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.group, 'user:pat@team-eng');
  });

  it('admin scopes: read-only reads and gets 403 on a mutation, full mutates, max_admin_scope none never gets in; audit names the IdP principal', async () => {
    const reader = adminClient(gw.adminUrl, { bearer: await idp.token('audrey') });
    assert.equal((await reader.GET('/groups')).response.status, 200);
    const denied = await reader.POST('/groups', { body: { name: 'nope' } as never });
    assert.equal(denied.response.status, 403);

    const full = adminClient(gw.adminUrl, { bearer: await idp.token('opsy') });
    assert.equal((await full.POST('/groups', { body: { name: 'made-by-opsy' } as never })).response.status, 201);

    const outsider = adminClient(gw.adminUrl, { bearer: await partner.token('pat') });
    const refused = await outsider.GET('/groups');
    assert.equal(refused.response.status, 401);
    assert.match(JSON.stringify(refused.error), /max_admin_scope: none/);

    const audit = await full.GET('/audit', {});
    const items = (audit.data as { items: Array<{ action: string; resource: string; principal: string; outcome: string }> }).items;
    const made = items.find((e) => e.resource.includes('made-by-opsy') && e.outcome === 'applied');
    assert.equal(made?.principal, 'idp:corp:user:opsy');
    const rejected = items.find((e) => e.principal === 'idp:corp:user:audrey' && e.outcome === 'rejected');
    assert.ok(rejected !== undefined, 'the refused mutation is audited under the IdP principal');
  });

  it('no issued key appears in a log line', () => {
    const keys = seen.map((t) => (JSON.parse(t) as { key?: string }).key).filter((k): k is string => typeof k === 'string');
    assert.ok(keys.length > 0);
    for (const k of keys) assert.ok(!gw.logs().includes(k));
  });
});
