// The mock's answers to the request kinds beside chat, written by hand in each vendor's shape
// (independently of the gateway's codecs): embeddings (OpenAI, Gemini embedContent and
// batchEmbedContents, Ollama embed and the older embeddings) and token counts (Anthropic
// count_tokens, Gemini countTokens, Responses input_tokens, Bedrock CountTokens).
import { Buffer } from 'node:buffer';
import type { MockSettings } from '../settings.js';
import type { MockProtocolName } from '../protocols/types.js';
import { arrayAt, objectAt, stringAt, type JsonObject } from '../protocols/json-read.js';
import { mockVector, mockWordCount, requestTexts } from './vectors.js';

/** An answer body, or what is wrong with the request (answered 400 in the protocol's shape). */
type KindAnswer = { body: string } | { error: string };

export interface MockKind {
  readonly name: string;
  readonly protocol: MockProtocolName;
  /** The model the request names (body or path), for the stats. */
  model(body: JsonObject, pathModel: string | null): string | null;
  answer(body: JsonObject, pathModel: string | null, s: MockSettings): KindAnswer;
}

const positiveInt = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const bodyModel = (body: JsonObject): string | null => stringAt(body.model);
const pathModelOf = (_body: JsonObject, pathModel: string | null): string | null => pathModel;

/** Texts of OpenAI's or Ollama's `input` (a string or strings); null when it is neither. */
function inputStrings(input: unknown): string[] | null {
  if (typeof input === 'string') return [input];
  const list = arrayAt(input);
  if (list === null || list.length === 0 || !list.every((x) => typeof x === 'string')) return null;
  return list as string[];
}

function geminiContentText(content: unknown): string | null {
  const parts = arrayAt(objectAt(content)?.parts);
  if (parts === null) return null;
  return parts.map((p) => stringAt(objectAt(p)?.text) ?? '').join('\n');
}

const openaiEmbeddings: MockKind = {
  name: 'openai-embeddings',
  protocol: 'openai',
  model: bodyModel,
  answer(body, _pathModel, s) {
    const texts = inputStrings(body.input);
    if (texts === null) return { error: "'input' must be a non-empty string or array of strings" };
    const dims = positiveInt(body.dimensions) ?? s.embedding_dims;
    const base64 = body.encoding_format === 'base64';
    const data = texts.map((t, index) => {
      const v = mockVector(t, dims);
      return { object: 'embedding', index, embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v };
    });
    const tokens = mockWordCount(texts);
    return { body: JSON.stringify({ object: 'list', data, model: bodyModel(body), usage: { prompt_tokens: tokens, total_tokens: tokens } }) };
  },
};

function geminiEmbedOne(request: JsonObject, s: MockSettings): number[] | null {
  const text = geminiContentText(request.content);
  return text === null ? null : mockVector(text, positiveInt(request.outputDimensionality) ?? s.embedding_dims);
}

const geminiEmbedContent: MockKind = {
  name: 'gemini-embed-content',
  protocol: 'gemini',
  model: pathModelOf,
  answer(body, _pathModel, s) {
    const values = geminiEmbedOne(body, s);
    return values === null ? { error: '* EmbedContentRequest.content: content is not specified' } : { body: JSON.stringify({ embedding: { values } }) };
  },
};

const geminiBatchEmbed: MockKind = {
  name: 'gemini-batch-embed-contents',
  protocol: 'gemini',
  model: pathModelOf,
  answer(body, pathModel, s) {
    const requests = arrayAt(body.requests);
    if (requests === null || requests.length === 0) return { error: '* BatchEmbedContentsRequest.requests: requests is not specified' };
    const embeddings: Array<{ values: number[] }> = [];
    for (let i = 0; i < requests.length; i++) {
      const r = objectAt(requests[i]);
      // Gemini refuses a request whose model is not the path's.
      if (r === null || stringAt(r.model) !== `models/${pathModel}`)
        return { error: `* BatchEmbedContentsRequest.requests[${i}].model: must be models/${pathModel}` };
      const values = geminiEmbedOne(r, s);
      if (values === null) return { error: `* BatchEmbedContentsRequest.requests[${i}].content: content is not specified` };
      embeddings.push({ values });
    }
    return { body: JSON.stringify({ embeddings }) };
  },
};

const ollamaEmbed: MockKind = {
  name: 'ollama-embed',
  protocol: 'ollama',
  model: bodyModel,
  answer(body, _pathModel, s) {
    const texts = inputStrings(body.input);
    if (texts === null) return { error: 'invalid input type' };
    const dims = positiveInt(body.dimensions) ?? s.embedding_dims;
    return {
      body: JSON.stringify({
        model: bodyModel(body),
        embeddings: texts.map((t) => mockVector(t, dims)),
        total_duration: 14_143_917,
        load_duration: 1_019_500,
        prompt_eval_count: mockWordCount(texts),
      }),
    };
  },
};

const ollamaLegacyEmbeddings: MockKind = {
  name: 'ollama-embeddings',
  protocol: 'ollama',
  model: bodyModel,
  answer(body, _pathModel, s) {
    const prompt = stringAt(body.prompt);
    if (prompt === null) return { error: 'prompt is required' };
    return { body: JSON.stringify({ embedding: mockVector(prompt, s.embedding_dims) }) };
  },
};

/** The words of a count request's text: the mock's count, the same whatever protocol carried it. */
function countOf(body: unknown): number {
  return mockWordCount(requestTexts(body));
}

const anthropicCountTokens: MockKind = {
  name: 'anthropic-count-tokens',
  protocol: 'anthropic',
  model: bodyModel,
  answer(body) {
    if (arrayAt(body.messages) === null) return { error: 'messages: Field required' };
    if (body.max_tokens !== undefined) return { error: 'max_tokens: Extra inputs are not permitted' };
    return { body: JSON.stringify({ input_tokens: countOf(body) }) };
  },
};

const geminiCountTokens: MockKind = {
  name: 'gemini-count-tokens',
  protocol: 'gemini',
  model: pathModelOf,
  answer(body, pathModel) {
    const whole = objectAt(body.generateContentRequest);
    if (whole !== null && stringAt(whole.model) !== `models/${pathModel}`) return { error: `* GenerateContentRequest.model: must be models/${pathModel}` };
    if (whole === null && arrayAt(body.contents) === null) return { error: '* CountTokensRequest: contents or generateContentRequest is required' };
    const total = countOf(whole ?? body);
    return { body: JSON.stringify({ totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] }) };
  },
};

const responsesInputTokens: MockKind = {
  name: 'responses-input-tokens',
  protocol: 'responses',
  model: bodyModel,
  answer(body) {
    if (body.stream !== undefined || body.max_output_tokens !== undefined) return { error: "Unknown parameter: 'stream' / 'max_output_tokens'." };
    return { body: JSON.stringify({ object: 'response.input_tokens', input_tokens: countOf(body) }) };
  },
};

const bedrockCountTokens: MockKind = {
  name: 'bedrock-count-tokens',
  protocol: 'bedrock',
  model: pathModelOf,
  answer(body) {
    const input = objectAt(body.input);
    const converse = objectAt(input?.converse);
    const invoke = stringAt(objectAt(input?.invokeModel)?.body);
    if (converse !== null) return { body: JSON.stringify({ inputTokens: countOf(converse) }) };
    if (invoke !== null) {
      try {
        return { body: JSON.stringify({ inputTokens: countOf(JSON.parse(Buffer.from(invoke, 'base64').toString('utf8'))) }) };
      } catch {
        return { error: 'The provided request is not valid: input.invokeModel.body is not JSON' };
      }
    }
    return { error: "1 validation error detected: Value at 'input' failed to satisfy constraint: Member must not be null" };
  },
};

export const MOCK_KINDS = {
  openaiEmbeddings,
  geminiEmbedContent,
  geminiBatchEmbed,
  ollamaEmbed,
  ollamaLegacyEmbeddings,
  anthropicCountTokens,
  geminiCountTokens,
  responsesInputTokens,
  bedrockCountTokens,
} as const;

/** The Gemini action (`models/{model}:{action}`) each kind answers. */
export const GEMINI_KIND_ACTIONS: Readonly<Record<string, MockKind>> = {
  embedContent: geminiEmbedContent,
  batchEmbedContents: geminiBatchEmbed,
  countTokens: geminiCountTokens,
};
