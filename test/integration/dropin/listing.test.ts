// Model listing through the vendors' own SDKs: what each lists is what the caller's key may
// use (an open front door sees every pool and lane; a key limited to one pool sees that pool
// only), in each vendor's shape, on the paths each SDK calls.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import { request } from 'undici';
import { suiteStack } from '../../helpers/clients/stack.js';
import { governedSuite } from '../governance/harness.js';

const POOLS = ['default', 'pool-anthropic', 'pool-bedrock', 'pool-gemini', 'pool-ollama', 'pool-openai', 'pool-responses'];
const LANES = ['lane-anthropic', 'lane-bedrock', 'lane-gemini', 'lane-ollama', 'lane-openai', 'lane-responses'];
const EVERYTHING = [...POOLS, ...LANES].sort();

/** Every name each SDK lists, for one credential. */
async function listedBy(url: string, key: string): Promise<Record<string, string[]>> {
  const openai: string[] = [];
  for await (const m of new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).models.list()) openai.push(m.id);
  const anthropic: string[] = [];
  for await (const m of new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 }).models.list({ limit: 5 })) anthropic.push(m.id);
  const gemini: string[] = [];
  const pager = await new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } }).models.list({ config: { pageSize: 4 } });
  for await (const m of pager) gemini.push(m.name!.replace(/^models\//, ''));
  const tags = await new Ollama({ host: url, headers: { Authorization: `Bearer ${key}` } }).list();
  const ollama = tags.models.map((m) => m.name);
  return { openai: openai.sort(), anthropic: anthropic.sort(), gemini: gemini.sort(), ollama: ollama.sort() };
}

describe('model listing, open front door', () => {
  const stack = suiteStack();

  it('openai, anthropic (paged by 5), gemini (paged by 4) and ollama SDKs list every pool and lane', async () => {
    const listed = await listedBy(stack.gateway.url, 'any');
    for (const vendor of ['openai', 'anthropic', 'gemini', 'ollama']) assert.deepEqual(listed[vendor], EVERYTHING, vendor);
  });

  it('each vendor shape: OpenAI model object, Anthropic model, Gemini model, Ollama tag', async () => {
    const url = stack.gateway.url;
    const o = await new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0 }).models.retrieve('pool-openai');
    assert.equal(o.object, 'model');
    assert.equal(o.owned_by, 'mock-openai');
    assert.equal(typeof o.created, 'number');
    const a = await new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 }).models.retrieve('lane-anthropic');
    assert.equal(a.type, 'model');
    assert.equal(a.id, 'lane-anthropic');
    assert.ok(!Number.isNaN(Date.parse(a.created_at)));
    const g = await new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: url } }).models.get({ model: 'pool-gemini' });
    assert.equal(g.name, 'models/pool-gemini');
    assert.ok(g.supportedActions?.includes('generateContent') ?? true);
    const ollama = new Ollama({ host: url });
    const shown = await ollama.show({ model: 'pool-ollama' });
    assert.equal(shown.details.family, 'ollama');
    assert.ok(shown.capabilities.includes('completion'));
    const tags = await ollama.list();
    const tag = tags.models.find((m) => m.name === 'pool-ollama')!;
    assert.equal(tag.model, 'pool-ollama');
    assert.match(tag.digest, /^[0-9a-f]{64}$/);
    const version = await ollama.version();
    assert.match(version.version, /^\d+\.\d+\.\d+$/);
  });

  it('an unknown model is a 404 in each vendor shape', async () => {
    const url = stack.gateway.url;
    await assert.rejects(
      new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0 }).models.retrieve('nope'),
      (e: unknown) => e instanceof OpenAI.NotFoundError,
    );
    await assert.rejects(
      new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0 }).models.retrieve('nope'),
      (e: unknown) => e instanceof Anthropic.NotFoundError,
    );
    await assert.rejects(new Ollama({ host: url }).show({ model: 'nope' }), /no pool or model named "nope"/);
    const g = await request(`${url}/v1beta/models/nope`, { headers: { 'x-goog-api-key': 'k' } });
    assert.equal(g.statusCode, 404);
    assert.equal(((await g.body.json()) as { error: { status: string } }).error.status, 'NOT_FOUND');
  });

  it('GET /v1/models answers in the shape of the SDK that asks (the header rule)', async () => {
    const url = stack.gateway.url;
    const get = async (path: string, headers: Record<string, string>): Promise<Record<string, unknown>> => {
      const res = await request(`${url}${path}`, { headers });
      assert.equal(res.statusCode, 200);
      return (await res.body.json()) as Record<string, unknown>;
    };
    assert.equal((await get('/v1/models', { authorization: 'Bearer k' })).object, 'list');
    assert.equal((await get('/v1/models', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })).has_more, false);
    assert.equal((await get('/v1/models', { 'x-api-key': 'k' })).has_more, false);
    assert.ok(Array.isArray((await get('/v1/models', { 'x-goog-api-key': 'k' })).models));
    assert.ok(Array.isArray((await get('/v1/models?key=k', {})).models));
    assert.ok(Array.isArray((await get('/v1beta/models?key=k', {})).models));
  });

  it('the listing paths answer other methods with 405 and Allow', async () => {
    const url = stack.gateway.url;
    for (const [method, path, allow] of [
      ['POST', '/v1/models', 'GET'],
      ['POST', '/api/tags', 'GET'],
      ['DELETE', '/v1/models/x', 'GET'],
      ['GET', '/api/show', 'POST'],
      ['POST', '/', 'GET, HEAD'],
    ] as const) {
      const res = await request(`${url}${path}`, { method, body: method === 'POST' ? '{}' : undefined });
      await res.body.text();
      assert.equal(res.statusCode, 405, `${method} ${path}`);
      assert.equal(res.headers.allow, allow, `${method} ${path}`);
    }
  });
});

describe('model listing filtered by the caller key', () => {
  const g = governedSuite({ workers: 1 });

  it('a key limited to one pool sees only that pool, in every SDK', async () => {
    const key = await g.admin.mint({ name: 'one-pool', allowed_pools: ['pool-openai'] });
    const listed = await listedBy(g.gw.url, key.secret);
    for (const vendor of ['openai', 'anthropic', 'gemini', 'ollama']) assert.deepEqual(listed[vendor], ['pool-openai'], vendor);
    // The pool it may not use is not found (a listing does not reveal it).
    await assert.rejects(
      new Ollama({ host: g.gw.url, headers: { Authorization: `Bearer ${key.secret}` } }).show({ model: 'pool-gemini' }),
      /no pool or model named/,
    );
  });

  it('a key allowed a pool and a lane sees both; a "*" key sees all', async () => {
    const two = await g.admin.mint({ name: 'two', allowed_pools: ['pool-gemini', 'lane-ollama'] });
    assert.deepEqual((await listedBy(g.gw.url, two.secret)).openai, ['lane-ollama', 'pool-gemini']);
    const all = await g.admin.mint({ name: 'all', allowed_pools: ['*'] });
    assert.deepEqual((await listedBy(g.gw.url, all.secret)).gemini, EVERYTHING);
  });

  it('no key or a bad key is refused in the vendor shape; a disabled key lists nothing', async () => {
    await assert.rejects(
      new OpenAI({ baseURL: `${g.gw.url}/v1`, apiKey: 'bogus', maxRetries: 0 }).models.list(),
      (e: unknown) => e instanceof OpenAI.AuthenticationError,
    );
    await assert.rejects(
      new Anthropic({ baseURL: g.gw.url, apiKey: 'bogus', maxRetries: 0 }).models.list(),
      (e: unknown) => e instanceof Anthropic.AuthenticationError,
    );
    const res = await request(`${g.gw.url}/api/tags`);
    assert.equal(res.statusCode, 401);
    assert.ok(typeof ((await res.body.json()) as { error: unknown }).error === 'string');
    const off = await g.admin.mint({ name: 'off', allowed_pools: ['*'] });
    await g.admin.ok('PATCH', `/keys/${off.id}`, { enabled: false });
    const tags = await new Ollama({ host: g.gw.url, headers: { Authorization: `Bearer ${off.secret}` } }).list();
    assert.deepEqual(tags.models, []);
  });
});
