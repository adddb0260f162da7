// The embeddings kind through the real gateway: the openai SDK, @google/genai (embedContent,
// and batchEmbedContents for several contents) and the ollama client (embed, and the older
// embeddings), each on every embedding lane (OpenAI, Gemini, Ollama: the mock's deterministic
// vectors, src/mock/kinds/vectors.ts), so every pair of the three protocols is crossed; a lane
// with no embeddings (Anthropic) is refused in the caller's shape.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import { mockVector } from '../../../src/mock/kinds/vectors.js';
import { suiteStack } from '../../helpers/clients/stack.js';

/** The mock's default embedding size (its embedding_dims setting). */
const DIMS = 8;
const LANES = ['pool-openai', 'pool-gemini', 'pool-ollama'] as const;

function assertVector(actual: readonly number[] | undefined, text: string): void {
  const expected = mockVector(text, DIMS);
  assert.equal(actual?.length, DIMS);
  for (let i = 0; i < DIMS; i++) assert.ok(Math.abs(actual![i]! - expected[i]!) < 1e-6, `component ${i} of "${text}"`);
}

describe('embeddings through the gateway', () => {
  const stack = suiteStack();

  for (const pool of LANES) {
    it(`openai SDK embeddings.create on ${pool} (base64, as the SDK asks)`, async () => {
      const client = new OpenAI({ baseURL: `${stack.gateway.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
      const out = await client.embeddings.create({ model: pool, input: ['alpha beta', 'gamma'] });
      assert.equal(out.data.length, 2);
      assertVector(out.data[0]!.embedding, 'alpha beta');
      assertVector(out.data[1]!.embedding, 'gamma');
      assert.ok(out.usage.prompt_tokens > 0);
    });

    it(`genai embedContent on ${pool}: one and several contents`, async () => {
      const ai = new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: stack.gateway.url } });
      const one = await ai.models.embedContent({ model: pool, contents: 'alpha beta' });
      assert.equal(one.embeddings?.length, 1);
      assertVector(one.embeddings![0]!.values, 'alpha beta');
      const many = await ai.models.embedContent({ model: pool, contents: ['alpha beta', 'gamma'] });
      assert.equal(many.embeddings?.length, 2);
      assertVector(many.embeddings![1]!.values, 'gamma');
    });

    it(`ollama client embed and embeddings on ${pool}`, async () => {
      const client = new Ollama({ host: stack.gateway.url });
      const out = await client.embed({ model: pool, input: ['alpha beta', 'gamma'] });
      assert.equal(out.embeddings.length, 2);
      assertVector(out.embeddings[0], 'alpha beta');
      const legacy = await client.embeddings({ model: pool, prompt: 'gamma' });
      assertVector(legacy.embedding, 'gamma');
    });
  }

  it('Gemini :embedContent (one content, as REST callers post it) on an Ollama lane', async () => {
    const res = await fetch(`${stack.gateway.url}/v1beta/models/pool-ollama:embedContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify({ content: { parts: [{ text: 'alpha beta' }] } }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { embedding: { values: number[] } };
    assertVector(body.embedding.values, 'alpha beta');
  });

  it("a lane with no embeddings endpoint is refused, in the caller's shape", async () => {
    const res = await fetch(`${stack.gateway.url}/api/embed`, { method: 'POST', body: JSON.stringify({ model: 'pool-anthropic', input: 'x' }) });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string };
    assert.match(body.error, /no embeddings endpoint/);
  });

  it('a bad request is refused before any upstream call', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'pool-openai', input: [] }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /input must not be empty/);
  });
});
