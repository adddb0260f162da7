// Every auth and governance row of the spec's data-plane outcomes table, through the vendors'
// own SDKs, on a gateway with `auth.chain: [keys]` and 2 workers: 401 without a valid key (all
// six protocols), 403 for a pool outside allowed_pools and for a frozen group, 429
// rate_limit_error with Retry-After for requests and tokens, 429 for concurrent, and the
// vendor-native quota status with insufficient_quota for budget (400 on Bedrock).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';
import { PROTOCOLS, chatAs, refusedAs } from './sdk-calls.js';

describe('governance outcomes through the vendor SDKs', () => {
  let mock: MockServer;
  let slow: MockServer;
  let g: Governed;
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    slow = await startMockProvider({ port: 0, latency_ms: 1500 });
    g = await startGoverned(mock.url, witness, {
      extraProviders: { 'slow-responses': { protocol: 'responses', base_url: `${slow.url}/v1`, auth: { mode: 'none' } } },
      extraModels: { 'lane-slow': { provider: 'slow-responses', upstream_model: 'up-slow' } },
      extraPools: { 'pool-slow': { members: [{ model: 'lane-slow', weight: 1 }] } },
      over: { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } },
    });
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
    await slow?.close();
  });

  it('a valid key is served on each of the six protocols', async () => {
    const key = await g.admin.mint({ name: 'all-protocols' });
    for (const protocol of PROTOCOLS) await chatAs(protocol, g.gw.url, key.secret);
  });

  it("401 without a valid key, in each protocol's shape", async () => {
    const expected: Record<string, string> = {
      openai: 'authentication_error',
      responses: 'authentication_error',
      anthropic: 'authentication_error',
      gemini: 'UNAUTHENTICATED',
      bedrock: 'UnrecognizedClientException',
      ollama: '',
    };
    for (const protocol of PROTOCOLS) {
      const f = await refusedAs(protocol, g.gw.url, 'not-a-key');
      assert.equal(f.status, 401, `${protocol}: ${f.message}`);
      assert.equal(f.type, expected[protocol], protocol);
    }
    // A key-shaped token signed by someone else is refused the same way.
    const forged = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJrZXlfeCIsImp0aSI6IngiLCJleHAiOjQxMDI0NDQ4MDB9.' + 'A'.repeat(86);
    assert.equal((await refusedAs('openai', g.gw.url, forged)).status, 401);
  });

  it('403 for a pool outside allowed_pools (gemini, ollama)', async () => {
    const key = await g.admin.mint({ name: 'narrow', allowed_pools: ['pool-openai'] });
    await chatAs('openai', g.gw.url, key.secret);
    const gemini = await refusedAs('gemini', g.gw.url, key.secret);
    assert.equal(gemini.status, 403);
    assert.equal(gemini.type, 'PERMISSION_DENIED');
    const ollama = await refusedAs('ollama', g.gw.url, key.secret);
    assert.equal(ollama.status, 403);
    assert.match(ollama.message, /allowed_pools/);
  });

  it('403 for a frozen group, anywhere in the parent chain (anthropic, responses)', async () => {
    await g.admin.ok('POST', '/groups', { name: 'frozen-parent', enabled: false });
    await g.admin.ok('POST', '/groups', { name: 'frozen-child', parent: 'frozen-parent' });
    const key = await g.admin.mint({ name: 'frozen', group: 'frozen-child' });
    const anthropic = await refusedAs('anthropic', g.gw.url, key.secret);
    assert.equal(anthropic.status, 403);
    assert.equal(anthropic.type, 'permission_error');
    assert.match(anthropic.message, /frozen-parent/);
    const responses = await refusedAs('responses', g.gw.url, key.secret);
    assert.equal(responses.status, 403);
    assert.equal(responses.type, 'permission_error');
  });

  it('429 rate_limit_error with Retry-After for a requests limit, naming the bucket (openai)', async () => {
    await g.admin.ok('POST', '/groups', { name: 'rpm2', limits: [{ metric: 'requests', window: 'minute', max: 2 }] });
    const key = await g.admin.mint({ name: 'rpm', group: 'rpm2' });
    await chatAs('openai', g.gw.url, key.secret);
    await chatAs('openai', g.gw.url, key.secret);
    const f = await refusedAs('openai', g.gw.url, key.secret);
    assert.equal(f.status, 429);
    assert.equal(f.type, 'rate_limit_error');
    assert.match(f.message, /group:rpm2@minute/);
    assert.match(f.message, /metric requests/);
    const retryAfter = Number(f.retryAfter);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${f.retryAfter}`);
  });

  it('429 rate_limit_error with Retry-After for a tokens limit (anthropic)', async () => {
    // The OpenAI call sets no max_tokens: it reserves its input estimate (about 22 tokens) and
    // uses 17. The Anthropic call then reserves its input and its max_tokens (50): 17 + that
    // does not fit the hour's 30.
    await g.admin.ok('POST', '/groups', { name: 'tok30', limits: [{ metric: 'tokens', window: 'hour', max: 30 }] });
    const key = await g.admin.mint({ name: 'tokens', group: 'tok30' });
    await chatAs('openai', g.gw.url, key.secret);
    const f = await refusedAs('anthropic', g.gw.url, key.secret);
    assert.equal(f.status, 429);
    assert.equal(f.type, 'rate_limit_error');
    assert.match(f.message, /group:tok30@hour/);
    assert.match(f.message, /this request reserves \d+ tokens/);
    assert.ok(Number(f.retryAfter) >= 1 && Number(f.retryAfter) <= 3600, `Retry-After ${f.retryAfter}`);
  });

  it('429 for a concurrent limit while a request is in flight, and free again after it (responses)', async () => {
    await g.admin.ok('POST', '/groups', { name: 'one-at-a-time', limits: [{ metric: 'concurrent', window: 'total', max: 1 }] });
    const key = await g.admin.mint({ name: 'conc', group: 'one-at-a-time' });
    const first = chatAs('responses', g.gw.url, key.secret, 'pool-slow');
    await new Promise((r) => setTimeout(r, 300));
    const f = await refusedAs('responses', g.gw.url, key.secret, 'pool-slow');
    assert.equal(f.status, 429);
    assert.equal(f.type, 'rate_limit_error');
    assert.match(f.message, /concurrent/);
    await first;
    await chatAs('responses', g.gw.url, key.secret);
  });

  it('budget: insufficient_quota with the vendor status (openai 429, gemini 429, bedrock 400)', async () => {
    // A fee of 1000 micros per request against a daily budget of 2000.
    await g.admin.ok('POST', '/groups', { name: 'budget2', per_request_fee_micros: 1000, limits: [{ metric: 'budget', window: 'day', max: 2000 }] });
    const key = await g.admin.mint({ name: 'budget', group: 'budget2' });
    await chatAs('openai', g.gw.url, key.secret);
    await chatAs('bedrock', g.gw.url, key.secret);
    const openai = await refusedAs('openai', g.gw.url, key.secret);
    assert.equal(openai.status, 429);
    assert.equal(openai.type, 'insufficient_quota');
    assert.match(openai.message, /group:budget2@day/);
    const gemini = await refusedAs('gemini', g.gw.url, key.secret);
    assert.equal(gemini.status, 429);
    assert.equal(gemini.type, 'RESOURCE_EXHAUSTED');
    const bedrock = await refusedAs('bedrock', g.gw.url, key.secret);
    assert.equal(bedrock.status, 400);
    assert.equal(bedrock.type, 'ServiceQuotaExceededException');
  });

  it("a key's own rpm_limit and max_budget_cents refuse too, and /keys/{id}/usage shows the window", async () => {
    const key = await g.admin.mint({ name: 'own-limits', rpm_limit: 1 });
    await chatAs('openai', g.gw.url, key.secret);
    const f = await refusedAs('openai', g.gw.url, key.secret);
    assert.equal(f.status, 429);
    assert.match(f.message, /rpm_limit/);
    const usage = await g.admin.ok('GET', `/keys/${key.id}/usage`);
    assert.equal(usage.id, key.id);
    assert.equal(usage.budget_period, 'monthly');
    assert.equal(usage.requests, 1);
    assert.equal(usage.tokens, 17);
    assert.equal(usage.rate_headroom, 0);
  });

  it('GET /metrics needs a valid key under a non-empty chain', async () => {
    const without = await request(`${g.gw.url}/metrics`);
    assert.equal(without.statusCode, 401);
    await without.body.dump();
    const key = await g.admin.mint({ name: 'metrics-reader' });
    const withKey = await request(`${g.gw.url}/metrics`, { headers: { authorization: `Bearer ${key.secret}` } });
    assert.equal(withKey.statusCode, 200);
    assert.match(await withKey.body.text(), /gateway_/);
  });

  it('a disabled key, or a key of a frozen group (or parent), reads neither /metrics nor /stats (issue 46)', async () => {
    const disabled = await g.admin.mint({ name: 'reader-disabled' });
    await g.admin.ok('POST', '/groups', { name: 'reads-frozen-parent' });
    await g.admin.ok('POST', '/groups', { name: 'reads-frozen-child', parent: 'reads-frozen-parent' });
    const frozen = await g.admin.mint({ name: 'reader-frozen', group: 'reads-frozen-child' });
    const read = async (path: string, secret: string): Promise<number> => {
      const res = await request(`${g.gw.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
      await res.body.dump();
      return res.statusCode;
    };
    // Both read while enabled (the verified-key cache is warm from here on).
    for (const path of ['/metrics', '/stats']) {
      assert.equal(await read(path, disabled.secret), 200, path);
      assert.equal(await read(path, frozen.secret), 200, path);
    }
    await g.admin.ok('PATCH', `/keys/${disabled.id}`, { enabled: false });
    await g.admin.ok('PATCH', '/groups/reads-frozen-parent', { enabled: false });
    for (const path of ['/metrics', '/stats']) {
      assert.equal(await read(path, disabled.secret), 401, `${path}: the disabled key`);
      assert.equal(await read(path, frozen.secret), 401, `${path}: the frozen group's key`);
    }
    await g.admin.ok('PATCH', `/keys/${disabled.id}`, { enabled: true });
    assert.equal(await read('/stats', disabled.secret), 200, 'enabled again');
  });

  it('GET /stats needs a valid key under a non-empty chain, and takes one (bearer or x-api-key)', async () => {
    const key = await g.admin.mint({ name: 'stats-reader' });
    const revoked = await g.admin.mint({ name: 'stats-revoked' });
    await g.admin.ok('DELETE', `/keys/${revoked.id}`);
    const cases: Array<[string, Record<string, string>, number]> = [
      ['no key', {}, 401],
      ['a malformed key', { authorization: 'Bearer not-a-key' }, 401],
      ['a revoked key', { authorization: `Bearer ${revoked.secret}` }, 401],
      ['a valid bearer (cold cache)', { authorization: `Bearer ${key.secret}` }, 200],
      ['a valid bearer (cached)', { authorization: `Bearer ${key.secret}` }, 200],
      ['a valid x-api-key', { 'x-api-key': key.secret }, 200],
    ];
    for (const [what, headers, status] of cases) {
      const res = await request(`${g.gw.url}/stats`, { headers });
      const text = await res.body.text();
      assert.equal(res.statusCode, status, `${what}: ${text}`);
      if (status === 200) assert.ok(Array.isArray((JSON.parse(text) as { lanes: unknown }).lanes), what);
      else assert.equal((JSON.parse(text) as { error: { type: string } }).error.type, 'authentication_error', what);
    }
  });
});
