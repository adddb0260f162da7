// The vendors' SDKs read what the embeddings codecs write for a caller: the openai SDK (which
// asks for base64 unless told and decodes it), @google/genai's embedContent (batchEmbedContents
// underneath), the ollama SDK's embed and its older embeddings. Each SDK posts to a local server
// that decodes the SDK's request with the route's codec and answers with its encoder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import { EMBEDDINGS_INGRESS, type EmbeddingsRoute } from '../../../src/shared/protocols/embeddings.js';
import type { EmbeddingRequest, EmbeddingResponse } from '../../../src/shared/model/embeddings.js';
import { CannedUpstream } from '../../helpers/canned-upstream.js';

const VECTOR = [0.5, -0.25, 0.125];

let upstream: CannedUpstream;
let url: string;
before(async () => {
  upstream = await CannedUpstream.start(0);
  url = `http://127.0.0.1:${upstream.port}`;
});
after(() => upstream.close());

/** Sets the canned answer to what the route's encoder writes for `n` vectors, decoding `body` as the SDK will send it. */
function answerFor(route: EmbeddingsRoute, req: EmbeddingRequest, n: number): void {
  const resp: EmbeddingResponse = {
    model: 'emb',
    vectors: Array.from({ length: n }, (_, i) => VECTOR.map((x) => x * (i + 1))),
    usage: { inputTokens: 9, estimated: false },
  };
  upstream.next = { status: 200, headers: { 'content-type': 'application/json' }, body: EMBEDDINGS_INGRESS[route].encodeResponse(resp, req) };
}

describe('the SDKs read the embeddings answers the codecs write', () => {
  it('openai: floats decoded from the base64 it asked for, and floats when asked', async () => {
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    answerFor('openai', { model: 'emb', inputs: [], encodingFormat: 'base64' }, 2);
    const out = await client.embeddings.create({ model: 'emb', input: ['a', 'b'] });
    const sent = EMBEDDINGS_INGRESS.openai.decodeRequest(JSON.parse(upstream.lastRequest!.body), undefined);
    assert.equal(sent.encodingFormat, 'base64', 'the SDK asks for base64 by default');
    assert.deepEqual(
      out.data.map((d) => d.embedding),
      [VECTOR, VECTOR.map((x) => x * 2)],
    );
    assert.equal(out.usage.prompt_tokens, 9);
    answerFor('openai', { model: 'emb', inputs: [], encodingFormat: 'float' }, 1);
    const floats = await client.embeddings.create({ model: 'emb', input: 'a', encoding_format: 'float' });
    assert.deepEqual(floats.data[0]!.embedding, VECTOR);
  });

  it('@google/genai: embedContent posts batchEmbedContents and reads the embeddings', async () => {
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: url } });
    answerFor('gemini-batch', { model: 'emb', inputs: [], encodingFormat: 'float' }, 2);
    const out = await ai.models.embedContent({ model: 'emb', contents: ['a', 'b'], config: { outputDimensionality: 3, taskType: 'RETRIEVAL_QUERY' } });
    assert.match(upstream.lastRequest!.url, /\/models\/emb:batchEmbedContents$/);
    const sent = EMBEDDINGS_INGRESS['gemini-batch'].decodeRequest(JSON.parse(upstream.lastRequest!.body), 'emb');
    assert.deepEqual([sent.inputs.length, sent.dimensions, sent.taskType], [2, 3, 'RETRIEVAL_QUERY']);
    assert.deepEqual(
      out.embeddings?.map((e) => e.values),
      [VECTOR, VECTOR.map((x) => x * 2)],
    );
  });

  it('ollama: embed and the older embeddings', async () => {
    const client = new Ollama({ host: url });
    answerFor('ollama-embed', { model: 'emb', inputs: [], encodingFormat: 'float' }, 2);
    const out = await client.embed({ model: 'emb', input: ['a', 'b'], dimensions: 3 });
    assert.deepEqual(EMBEDDINGS_INGRESS['ollama-embed'].decodeRequest(JSON.parse(upstream.lastRequest!.body), undefined).dimensions, 3);
    assert.deepEqual(out.embeddings, [VECTOR, VECTOR.map((x) => x * 2)]);
    assert.equal(out.prompt_eval_count, 9);
    answerFor('ollama-embeddings', { model: 'emb', inputs: [], encodingFormat: 'float' }, 1);
    const legacy = await client.embeddings({ model: 'emb', prompt: 'a' });
    assert.match(upstream.lastRequest!.url, /\/api\/embeddings$/);
    assert.deepEqual(legacy.embedding, VECTOR);
  });
});
