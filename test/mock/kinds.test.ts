// The mock's embeddings and token counts: the vendors' own SDKs read what it writes (OpenAI,
// Gemini and Ollama embeddings; Anthropic, Gemini, Responses and Bedrock counts), the vectors
// are the deterministic mockVector of each text at the asked (or set) size, a count is the
// words of the request's text, and the settings and faults work as on the chat routes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import { BedrockRuntimeClient, CountTokensCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mockVector, mockWordCount, requestTexts } from '../../src/mock/kinds/vectors.js';
import { mockText } from '../../src/mock/content.js';
import { suiteMock } from '../helpers/clients/stack.js';

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any }> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? null : JSON.parse(text) };
}

describe('mock vectors and counts', () => {
  it('a unit vector of the asked size, the same for the same text, another for another', () => {
    const v = mockVector('hello', 16);
    assert.equal(v.length, 16);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    assert.deepEqual(mockVector('hello', 16), v);
    assert.notDeepEqual(mockVector('hello!', 16), v);
  });
  it('a count is the words under the text keys, at any depth; keys, roles and models are not text', () => {
    const body = { model: 'many words here', messages: [{ role: 'user', content: [{ type: 'text', text: 'one two' }] }], system: 'three' };
    assert.deepEqual(requestTexts(body), ['one two', 'three']);
    assert.equal(mockWordCount(requestTexts(body)), 3);
  });
});

describe('mock embeddings and token counts with the vendor SDKs', () => {
  const mock = suiteMock({ embedding_dims: 6 });

  it('openai: floats at the asked size, base64 decoded by the SDK, usage = words', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    const floats = await client.embeddings.create({ model: 'emb', input: ['hello world', 'bye'], dimensions: 4, encoding_format: 'float' });
    assert.deepEqual(
      floats.data.map((d) => d.embedding),
      [mockVector('hello world', 4), mockVector('bye', 4)],
    );
    assert.equal(floats.usage.prompt_tokens, 3);
    const base64 = await client.embeddings.create({ model: 'emb', input: 'hello world' });
    const got = base64.data[0]!.embedding;
    assert.equal(got.length, 6, 'the run setting embedding_dims when the request names none');
    mockVector('hello world', 6).forEach((x, i) => assert.ok(Math.abs(got[i]! - x) < 1e-6));
  });

  it('@google/genai: embedContent (batchEmbedContents) and the single embedContent route', async () => {
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: mock.url } });
    const out = await ai.models.embedContent({ model: 'text-embedding-004', contents: ['alpha', 'beta'], config: { outputDimensionality: 3 } });
    assert.deepEqual(
      out.embeddings?.map((e) => e.values),
      [mockVector('alpha', 3), mockVector('beta', 3)],
    );
    const single = await post(`${mock.url}/v1beta/models/text-embedding-004:embedContent`, { content: { parts: [{ text: 'alpha' }] } });
    assert.deepEqual(single.json, { embedding: { values: mockVector('alpha', 6) } });
    const wrongModel = await post(`${mock.url}/v1beta/models/a:batchEmbedContents`, { requests: [{ model: 'models/b', content: { parts: [{ text: 'x' }] } }] });
    assert.equal(wrongModel.status, 400);
    assert.equal(wrongModel.json.error.status, 'INVALID_ARGUMENT');
  });

  it('ollama: embed (usage = words) and the older embeddings', async () => {
    const client = new Ollama({ host: mock.url });
    const out = await client.embed({ model: 'nomic', input: ['a b c', 'd'], dimensions: 5 });
    assert.deepEqual(out.embeddings, [mockVector('a b c', 5), mockVector('d', 5)]);
    assert.equal(out.prompt_eval_count, 4);
    const legacy = await client.embeddings({ model: 'nomic', prompt: 'a b c' });
    assert.deepEqual(legacy.embedding, mockVector('a b c', 6));
  });

  it('counts: Anthropic countTokens, genai countTokens, Responses inputTokens.count, Bedrock CountTokens', async () => {
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: mock.url, maxRetries: 0 });
    assert.equal(
      (await anthropic.messages.countTokens({ model: 'claude', system: 'be brief', messages: [{ role: 'user', content: 'count these three' }] })).input_tokens,
      5,
    );
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: mock.url } });
    assert.equal((await ai.models.countTokens({ model: 'gemini-x', contents: 'count these three' })).totalTokens, 3);
    const openai = new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    assert.equal((await openai.responses.inputTokens.count({ model: 'gpt', input: 'count these three', instructions: 'be brief' })).input_tokens, 5);
    const bedrock = new BedrockRuntimeClient({
      endpoint: mock.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      requestHandler: new NodeHttpHandler(),
      maxAttempts: 1,
    });
    const counted = await bedrock.send(
      new CountTokensCommand({
        modelId: 'anthropic.claude-v1:0',
        input: { converse: { messages: [{ role: 'user', content: [{ text: 'count these three' }] }] } },
      }),
    );
    assert.equal(counted.inputTokens, 3);
    assert.equal(mock.stats().last_request?.model, 'anthropic.claude-v1:0');
  });

  it('the counting endpoints refuse generation fields as the vendors do', async () => {
    const anthropic = await post(`${mock.url}/v1/messages/count_tokens`, { model: 'c', max_tokens: 5, messages: [] });
    assert.equal(anthropic.status, 400);
    assert.equal(anthropic.json.type, 'error');
    const responses = await post(`${mock.url}/v1/responses/input_tokens`, { model: 'g', input: 'x', stream: false });
    assert.equal(responses.status, 400);
  });

  it('settings and faults: x-mock headers, a directive in the text, status, latency, reset; counted and recorded', async () => {
    mock.reset();
    const forced = await post(`${mock.url}/v1/embeddings`, { model: 'emb', input: 'x' }, { 'x-mock-status': '429', 'x-mock-retry-after': '7' });
    assert.equal(forced.status, 429);
    assert.equal(forced.headers.get('retry-after'), '7');
    assert.equal(forced.json.error.type, 'rate_limit_error');
    const directed = await post(`${mock.url}/api/embed`, { model: 'n', input: 'x [mock status=503]' });
    assert.equal(directed.status, 503);
    assert.equal(typeof directed.json.error, 'string', "Ollama's error shape");
    const dims = await post(`${mock.url}/v1/embeddings`, { model: 'emb', input: 'x' }, { 'x-mock-embedding-dims': '2' });
    assert.equal(dims.json.data[0].embedding.length, 2);
    // Latency is taken (and answered after it); its timing is the chat routes' own timer code.
    assert.equal((await post(`${mock.url}/v1/messages/count_tokens`, { model: 'c', messages: [] }, { 'x-mock-latency-ms': '5' })).status, 200);
    await assert.rejects(post(`${mock.url}/v1/embeddings`, { model: 'emb', input: 'x' }, { 'x-mock-fault': 'reset_before' }));
    const bad = await post(`${mock.url}/v1/embeddings`, { model: 'emb', input: 'x' }, { 'x-mock-embedding-dims': 'lots' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error.message, /embedding_dims/);
    const stats = mock.stats();
    assert.equal(stats.requests, 6);
    assert.equal(stats.requests_by_protocol.openai, 4);
    assert.equal(stats.resets, 1);
    assert.equal(stats.inflight, 0);
    const last = (await (await fetch(`${mock.url}/mock/last-request`)).json()) as { path: string; headers: Record<string, string> };
    assert.equal(last.path, '/v1/embeddings');
    assert.equal(last.headers['x-mock-embedding-dims'], 'lots');
  });

  it("Gemini's chat routes are untouched by the kinds' routes beside them", async () => {
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: mock.url } });
    const out = await ai.models.generateContent({ model: 'gemini-x', contents: 'hi' });
    assert.equal(out.text, mockText(5));
    const unknown = await post(`${mock.url}/v1beta/models/gemini-x:frobnicate`, {});
    assert.equal(unknown.status, 404);
  });
});
