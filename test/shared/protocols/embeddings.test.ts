// The embeddings codecs: each caller route decoded, each lane protocol encoded, the lane's
// answer decoded and the caller's answer written, in all nine (route protocol x lane protocol)
// directions; the refusals; usage as reported or estimated (and marked).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  EMBEDDINGS_INGRESS,
  EMBEDDINGS_UPSTREAM,
  embeddingsProtocolOf,
  embeddingsUsage,
  planEmbeddings,
  type EmbeddingsProtocol,
  type EmbeddingsRoute,
} from '../../../src/shared/protocols/embeddings.js';
import { float32Base64, float32FromBase64 } from '../../../src/shared/protocols/openai/embeddings.js';
import type { EmbeddingRequest } from '../../../src/shared/model/embeddings.js';
import { GatewayError } from '../../../src/shared/errors.js';
import { TranslationRefused } from '../../../src/shared/protocols/refusal.js';

const VECTORS = [
  [0.5, -0.25, 1],
  [0.125, 0, -1],
];

/** Two texts, "hello world" and "good night", as each route's caller writes them. */
const CALLER_BODIES: Record<EmbeddingsRoute, { body: unknown; pathModel?: string }> = {
  openai: { body: { model: 'emb-pool', input: ['hello world', 'good night'] } },
  'gemini-embed': { body: { content: { parts: [{ text: 'hello world' }] } }, pathModel: 'emb-pool' },
  'gemini-batch': {
    body: {
      requests: [
        { model: 'models/emb-pool', content: { parts: [{ text: 'hello world' }] } },
        { model: 'models/emb-pool', content: { parts: [{ text: 'good night' }] } },
      ],
    },
    pathModel: 'emb-pool',
  },
  'ollama-embed': { body: { model: 'emb-pool', input: ['hello world', 'good night'] } },
  'ollama-embeddings': { body: { model: 'emb-pool', prompt: 'hello world' } },
};

/** Each lane protocol's answer holding VECTORS (as many as asked), usage where the protocol reports it. */
function laneAnswer(protocol: EmbeddingsProtocol, n: number): unknown {
  const vs = VECTORS.slice(0, n);
  switch (protocol) {
    case 'openai':
      return {
        object: 'list',
        data: vs.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 7, total_tokens: 7 },
      };
    case 'gemini':
      return { embeddings: vs.map((values) => ({ values })) };
    case 'ollama':
      return { model: 'nomic-embed-text', embeddings: vs, total_duration: 1, load_duration: 1, prompt_eval_count: 7 };
  }
}

describe('embeddings: every route to every lane protocol and back', () => {
  for (const route of Object.keys(CALLER_BODIES) as EmbeddingsRoute[]) {
    for (const lane of ['openai', 'gemini', 'ollama'] as EmbeddingsProtocol[]) {
      it(`${route} caller, ${lane} lane`, () => {
        const ingress = EMBEDDINGS_INGRESS[route];
        const { body, pathModel } = CALLER_BODIES[route];
        const req = ingress.decodeRequest(body, pathModel);
        assert.equal(ingress.requestedModel(body, pathModel), 'emb-pool');
        const n = route === 'gemini-embed' || route === 'ollama-embeddings' ? 1 : 2;
        assert.deepEqual(
          req.inputs.map((i) => (i.type === 'text' ? i.text : null)),
          ['hello world', 'good night'].slice(0, n),
        );

        const upstream = EMBEDDINGS_UPSTREAM[lane].encodeRequest(req, 'up-model');
        const sent = JSON.parse(upstream.body);
        if (lane === 'openai') {
          assert.equal(upstream.path, '/embeddings');
          assert.deepEqual(sent, { model: 'up-model', input: ['hello world', 'good night'].slice(0, n), encoding_format: 'float' });
        } else if (lane === 'gemini') {
          assert.equal(upstream.path, '/models/up-model:batchEmbedContents');
          assert.deepEqual(
            sent.requests.map((r: { model: string; content: unknown }) => [r.model, r.content]),
            ['hello world', 'good night'].slice(0, n).map((text) => ['models/up-model', { parts: [{ text }] }]),
          );
        } else {
          assert.equal(upstream.path, '/api/embed');
          assert.deepEqual(sent, { model: 'up-model', input: ['hello world', 'good night'].slice(0, n) });
        }

        const resp = EMBEDDINGS_UPSTREAM[lane].decodeResponse(laneAnswer(lane, n), req);
        assert.deepEqual(resp.vectors, VECTORS.slice(0, n));
        // Gemini reports no tokens: "hello world" + "good night" is 21 bytes, 6 tokens by the estimate.
        assert.deepEqual(resp.usage, lane === 'gemini' ? { inputTokens: n === 2 ? 6 : 3, estimated: true } : { inputTokens: 7, estimated: false });

        const answer = JSON.parse(ingress.encodeResponse(resp, req));
        switch (route) {
          case 'openai':
            assert.deepEqual(
              answer.data.map((d: { index: number; embedding: number[] }) => [d.index, d.embedding]),
              [
                [0, VECTORS[0]],
                [1, VECTORS[1]],
              ],
            );
            assert.equal(answer.object, 'list');
            assert.equal(answer.usage.prompt_tokens, resp.usage.inputTokens);
            break;
          case 'gemini-embed':
            assert.deepEqual(answer, { embedding: { values: VECTORS[0] } });
            break;
          case 'gemini-batch':
            assert.deepEqual(answer, { embeddings: VECTORS.map((values) => ({ values })) });
            break;
          case 'ollama-embed':
            assert.deepEqual(answer.embeddings, VECTORS);
            assert.equal(answer.prompt_eval_count, resp.usage.inputTokens);
            break;
          case 'ollama-embeddings':
            assert.deepEqual(answer, { embedding: VECTORS[0] });
            break;
        }
      });
    }
  }
});

describe('embeddings: OpenAI inputs and encodings', () => {
  const decode = (body: unknown): EmbeddingRequest => EMBEDDINGS_INGRESS.openai.decodeRequest(body, undefined);

  it('input is a string, strings, token ids or arrays of token ids', () => {
    assert.deepEqual(decode({ model: 'm', input: 'one' }).inputs, [{ type: 'text', text: 'one' }]);
    assert.deepEqual(decode({ model: 'm', input: [1, 2, 3] }).inputs, [{ type: 'tokens', tokens: [1, 2, 3] }]);
    assert.deepEqual(decode({ model: 'm', input: [[1], [2, 3]] }).inputs, [
      { type: 'tokens', tokens: [1] },
      { type: 'tokens', tokens: [2, 3] },
    ]);
  });

  it('refuses what OpenAI refuses, naming the field', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ model: 'm', input: [] }, /input must not be empty/],
      [{ model: 'm', input: '' }, /input must not be an empty string/],
      [{ model: 'm', input: [1.5] }, /input\[0\] must be a token id/],
      [{ model: 'm', input: 'x', encoding_format: 'int8' }, /encoding_format/],
      [{ model: 'm', input: 'x', dimensions: 0 }, /dimensions must be at least 1/],
      [{ input: 'x' }, /model must be a string/],
    ];
    for (const [body, message] of bad)
      assert.throws(
        () => decode(body),
        (e: unknown) => e instanceof GatewayError && e.kind === 'invalid_request' && message.test(e.message),
      );
  });

  it('token ids go to an OpenAI lane as they are, and are refused by the others', () => {
    const req = decode({ model: 'm', input: [[5, 6]], dimensions: 256, user: 'u-1' });
    assert.deepEqual(JSON.parse(EMBEDDINGS_UPSTREAM.openai.encodeRequest(req, 'up').body), {
      model: 'up',
      input: [[5, 6]],
      encoding_format: 'float',
      dimensions: 256,
      user: 'u-1',
    });
    for (const lane of ['gemini', 'ollama'] as const) {
      assert.throws(
        () => EMBEDDINGS_UPSTREAM[lane].encodeRequest(req, 'up'),
        (e: unknown) => e instanceof TranslationRefused && /input as token ids/.test(e.message),
      );
    }
  });

  it('base64: the caller who asked gets little-endian float32, from any lane; a base64 lane answer is read', () => {
    const req = decode({ model: 'm', input: 'x', encoding_format: 'base64' });
    const resp = EMBEDDINGS_UPSTREAM.gemini.decodeResponse({ embeddings: [{ values: [0.5, -2] }] }, req);
    const answer = JSON.parse(EMBEDDINGS_INGRESS.openai.encodeResponse(resp, req));
    assert.equal(answer.data[0].embedding, Buffer.from(new Float32Array([0.5, -2]).buffer).toString('base64'));
    assert.deepEqual(float32FromBase64(float32Base64([0.25, 3])), [0.25, 3]);
    const fromLane = EMBEDDINGS_UPSTREAM.openai.decodeResponse({ data: [{ index: 0, embedding: float32Base64([1.5]) }], usage: { prompt_tokens: 1 } }, req);
    assert.deepEqual(fromLane.vectors, [[1.5]]);
  });

  it("the lane's own index order wins, and a vector count that does not match the inputs is the upstream's fault", () => {
    const req = decode({ model: 'm', input: ['a', 'b'] });
    const resp = EMBEDDINGS_UPSTREAM.openai.decodeResponse(
      {
        data: [
          { index: 1, embedding: [2] },
          { index: 0, embedding: [1] },
        ],
      },
      req,
    );
    assert.deepEqual(resp.vectors, [[1], [2]]);
    assert.deepEqual(resp.usage, { inputTokens: 1, estimated: true }, 'no usage from the host: estimated from "a" and "b"');
    assert.throws(
      () => EMBEDDINGS_UPSTREAM.openai.decodeResponse({ data: [{ index: 0, embedding: [1] }] }, req),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error',
    );
    assert.throws(() => EMBEDDINGS_UPSTREAM.ollama.decodeResponse({ embeddings: [[1], [2], [3]] }, req), /3 vectors for 2 inputs/);
  });
});

describe('embeddings: Gemini settings', () => {
  const batch = (requests: unknown[]): EmbeddingRequest => EMBEDDINGS_INGRESS['gemini-batch'].decodeRequest({ requests }, 'emb');

  it('taskType, titles and outputDimensionality go to a Gemini lane per request', () => {
    const req = batch([
      { model: 'models/emb', content: { parts: [{ text: 'doc one' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'One', outputDimensionality: 64 },
      { model: 'models/emb', content: { parts: [{ text: 'doc two' }] }, task_type: 'RETRIEVAL_DOCUMENT', output_dimensionality: 64 },
    ]);
    assert.equal(req.taskType, 'RETRIEVAL_DOCUMENT');
    assert.equal(req.dimensions, 64);
    const sent = JSON.parse(EMBEDDINGS_UPSTREAM.gemini.encodeRequest(req, 'up').body);
    assert.deepEqual(sent.requests[0], {
      model: 'models/up',
      content: { parts: [{ text: 'doc one' }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      title: 'One',
      outputDimensionality: 64,
    });
    assert.equal(sent.requests[1].title, undefined);
  });

  it('dimensions cross to the other lanes; taskType and title are refused by them', () => {
    const dims = batch([{ content: { parts: [{ text: 'x' }] }, outputDimensionality: 32 }]);
    assert.equal(JSON.parse(EMBEDDINGS_UPSTREAM.openai.encodeRequest(dims, 'up').body).dimensions, 32);
    assert.equal(JSON.parse(EMBEDDINGS_UPSTREAM.ollama.encodeRequest(dims, 'up').body).dimensions, 32);
    const task = batch([{ content: { parts: [{ text: 'x' }] }, taskType: 'RETRIEVAL_QUERY' }]);
    const titled = batch([{ content: { parts: [{ text: 'x' }] }, title: 'T' }]);
    for (const lane of ['openai', 'ollama'] as const) {
      assert.throws(
        () => EMBEDDINGS_UPSTREAM[lane].encodeRequest(task, 'up'),
        (e: unknown) => e instanceof TranslationRefused && /taskType=RETRIEVAL_QUERY/.test(e.message),
      );
      assert.throws(
        () => EMBEDDINGS_UPSTREAM[lane].encodeRequest(titled, 'up'),
        (e: unknown) => e instanceof TranslationRefused && /title/.test(e.message),
      );
    }
  });

  it('a batch with differing settings, an unknown task type or no path model is a 400', () => {
    assert.throws(
      () => batch([{ content: { parts: [{ text: 'a' }] }, taskType: 'CLUSTERING' }, { content: { parts: [{ text: 'b' }] } }]),
      /must be the same in every request/,
    );
    assert.throws(() => batch([{ content: { parts: [{ text: 'a' }] }, taskType: 'GUESSING' }]), /taskType must be one of/);
    assert.throws(() => batch([]), /requests must not be empty/);
    assert.throws(() => EMBEDDINGS_INGRESS['gemini-embed'].decodeRequest({ content: { parts: [] } }, undefined), /model is named in the path/);
  });

  it("one content's text parts are one input; a part that is not text is refused on every lane", () => {
    const req = EMBEDDINGS_INGRESS['gemini-embed'].decodeRequest({ content: { parts: [{ text: 'a' }, { text: 'b' }] } }, 'emb');
    assert.deepEqual(req.inputs, [{ type: 'text', text: 'a\nb' }]);
    const image = EMBEDDINGS_INGRESS['gemini-embed'].decodeRequest({ content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'emb');
    for (const lane of ['openai', 'gemini', 'ollama'] as const) {
      assert.throws(
        () => EMBEDDINGS_UPSTREAM[lane].encodeRequest(image, 'up'),
        (e: unknown) => e instanceof TranslationRefused && /inlineData/.test(e.message),
      );
    }
  });

  it("a same-protocol body keeps the caller's fields and names the lane's model in every request", () => {
    const body = { requests: [{ model: 'models/emb', content: { parts: [{ text: 'a' }] }, taskType: 'CLUSTERING', extra: 1 }] };
    const out = EMBEDDINGS_INGRESS['gemini-batch'].passthrough(JSON.stringify(body), body, 'text-embedding-004');
    assert.equal(out.path, '/models/text-embedding-004:batchEmbedContents');
    assert.deepEqual(JSON.parse(out.body), {
      requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, taskType: 'CLUSTERING', extra: 1 }],
    });
    const single = EMBEDDINGS_INGRESS['gemini-embed'].passthrough('', { content: { parts: [{ text: 'a' }] } }, 'up');
    assert.equal(single.path, '/models/up:embedContent');
  });
});

describe('embeddings: Ollama settings and forms', () => {
  it('truncate, dimensions and keep_alive go to an Ollama lane; truncate=false is refused by Gemini', () => {
    const req = EMBEDDINGS_INGRESS['ollama-embed'].decodeRequest(
      { model: 'm', input: 'x', truncate: false, dimensions: 8, keep_alive: '5m', options: { num_ctx: 512 } },
      undefined,
    );
    assert.deepEqual(JSON.parse(EMBEDDINGS_UPSTREAM.ollama.encodeRequest(req, 'up').body), {
      model: 'up',
      input: ['x'],
      truncate: false,
      dimensions: 8,
      keep_alive: '5m',
    });
    assert.deepEqual(JSON.parse(EMBEDDINGS_UPSTREAM.openai.encodeRequest(req, 'up').body), {
      model: 'up',
      input: ['x'],
      encoding_format: 'float',
      dimensions: 8,
    });
    assert.throws(
      () => EMBEDDINGS_UPSTREAM.gemini.encodeRequest(req, 'up'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'untranslatable' && /truncate=false/.test(e.message),
    );
  });

  it('the older /api/embeddings: prompt in, one embedding out, usage estimated', () => {
    const req = EMBEDDINGS_INGRESS['ollama-embeddings'].decodeRequest({ model: 'm', prompt: 'twelve bytes' }, undefined);
    const resp = EMBEDDINGS_UPSTREAM.ollama.decodeResponse({ embedding: [0.1, 0.2] }, req);
    assert.deepEqual(resp.usage, { inputTokens: 3, estimated: true });
    assert.equal(EMBEDDINGS_INGRESS['ollama-embeddings'].encodeResponse(resp, req), '{"embedding":[0.1,0.2]}');
    assert.throws(() => EMBEDDINGS_INGRESS['ollama-embeddings'].decodeRequest({ model: 'm' }, undefined), /prompt must be a string/);
  });

  it('a same-protocol body has only its model changed, byte for byte', () => {
    const raw = '{"model":"emb-pool","input":["a"],"options":{"num_ctx":512}}';
    assert.deepEqual(EMBEDDINGS_INGRESS['ollama-embed'].passthrough(raw, JSON.parse(raw), 'nomic'), {
      path: '/api/embed',
      body: '{"model":"nomic","input":["a"],"options":{"num_ctx":512}}',
    });
  });
});

describe('embeddings: which lanes serve them', () => {
  it('OpenAI and Responses hosts (their /embeddings), Gemini and Ollama; not Anthropic nor Bedrock Converse', () => {
    assert.deepEqual(
      ['openai', 'responses', 'gemini', 'ollama', 'anthropic', 'bedrock'].map((p) => embeddingsProtocolOf(p as never)),
      ['openai', 'openai', 'gemini', 'ollama', null, null],
    );
  });
});

describe('embeddings: the plan for a lane', () => {
  it("the caller's bytes to a lane of the route's protocol, the translation to another, a refusal where there are no embeddings", () => {
    const raw = '{"model":"emb-pool","input":["a"],"extra":true}';
    const body = JSON.parse(raw);
    const req = EMBEDDINGS_INGRESS.openai.decodeRequest(body, undefined);
    const same = planEmbeddings(EMBEDDINGS_INGRESS.openai, req, raw, body, 'responses', 'text-embedding-3-small');
    assert.equal(same.sameProtocol, true);
    assert.deepEqual(JSON.parse(same.request.body), { model: 'text-embedding-3-small', input: ['a'], extra: true });
    const other = planEmbeddings(EMBEDDINGS_INGRESS.openai, req, raw, body, 'ollama', 'nomic');
    assert.deepEqual([other.sameProtocol, other.request.path], [false, '/api/embed']);
    assert.deepEqual(other.upstream.decodeResponse({ embeddings: [[1]], prompt_eval_count: 2 }, req).vectors, [[1]]);
    assert.throws(
      () => planEmbeddings(EMBEDDINGS_INGRESS.openai, req, raw, body, 'anthropic', 'x'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'untranslatable' && /no embeddings endpoint/.test(e.message),
    );
  });

  it('an answer meters its input tokens only', () => {
    assert.deepEqual(embeddingsUsage({ inputTokens: 9, estimated: true }), { input: 9, output: 0, cacheRead: 0, cacheCreation: 0 });
  });
});
