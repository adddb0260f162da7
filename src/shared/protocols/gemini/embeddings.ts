// Gemini `models/{model}:embedContent` (one content) and `:batchEmbedContents` (a list of
// embedContent requests; what @google/genai's embedContent posts) <-> the embedding model.
// Gemini answers no token count for either: the usage is estimated and marked so.
import type { EmbeddingInput, EmbeddingRequest, EmbeddingResponse, GeminiTaskType } from '../../model/embeddings.js';
import { GEMINI_TASK_TYPES } from '../../model/embeddings.js';
import { estimateTextTokens } from '../../model/token-count.js';
import { GatewayError } from '../../errors.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { expectArray, expectObject, isJsonObject, tokenCount, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { requiredPathModel } from '../request-members.js';
import { inputTexts, refuseEmbeddingFeatures } from '../embedding-refusal.js';
import { field } from './fields.js';

/** Which of the two routes: one content and one vector, or a batch of them. */
export type GeminiEmbedForm = 'single' | 'batch';

export function geminiEmbedPath(model: string, form: GeminiEmbedForm): string {
  return `/models/${model}:${form === 'single' ? 'embedContent' : 'batchEmbedContents'}`;
}

// ---------------------------------------------------------------- ingress

/** One embedContent request's settings, as the batch form repeats them per request. */
interface EmbedSettings {
  taskType?: GeminiTaskType;
  dimensions?: number;
  title?: string;
}

export function decodeGeminiEmbedRequest(body: unknown, pathModel: string | undefined, form: GeminiEmbedForm): EmbeddingRequest {
  const model = requiredPathModel(pathModel, `/v1beta/models/{model}:${form === 'single' ? 'embedContent' : 'batchEmbedContents'}`);
  const o = expectObject(body, 'request body');
  const req: EmbeddingRequest = { model, inputs: [], encodingFormat: 'float' };
  const requests = form === 'single' ? [o] : expectArray(o.requests, 'requests');
  if (requests.length === 0) throw invalidRequest('requests must not be empty');
  let first: EmbedSettings | undefined;
  const titles: Array<string | undefined> = [];
  for (let i = 0; i < requests.length; i++) {
    const path = form === 'single' ? 'request' : `requests[${i}]`;
    const r = expectObject(requests[i], path);
    req.inputs.push(decodeContent(r.content, `${path}.content`, req));
    const settings = decodeSettings(r, path);
    titles.push(settings.title);
    if (first === undefined) first = settings;
    else if (settings.taskType !== first.taskType || settings.dimensions !== first.dimensions) {
      // The model holds one of each per request, as every other protocol does.
      throw invalidRequest(`${path}: taskType and outputDimensionality must be the same in every request of a batch`);
    }
  }
  if (first!.taskType !== undefined) req.taskType = first!.taskType;
  if (first!.dimensions !== undefined) req.dimensions = first!.dimensions;
  if (titles.some((t) => t !== undefined)) req.titles = titles;
  return req;
}

function decodeContent(v: unknown, path: string, req: EmbeddingRequest): EmbeddingInput {
  const content = expectObject(v, path);
  const parts = expectArray(content.parts, `${path}.parts`);
  const texts: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = expectObject(parts[i], `${path}.parts[${i}]`);
    if (typeof part.text === 'string') texts.push(part.text);
    else (req.untranslatable ??= []).push(`${path}.parts[${i}] (${Object.keys(part)[0] ?? 'empty'})`);
  }
  // Gemini embeds the text of one content's parts as one text.
  return { type: 'text', text: texts.join('\n') };
}

function decodeSettings(r: JsonObject, path: string): EmbedSettings {
  const out: EmbedSettings = {};
  const taskType = field(r, 'taskType', 'task_type');
  if (taskType !== undefined && taskType !== null) {
    if (typeof taskType !== 'string' || !(GEMINI_TASK_TYPES as readonly string[]).includes(taskType)) {
      throw invalidRequest(`${path}.taskType must be one of ${GEMINI_TASK_TYPES.join(', ')}`);
    }
    out.taskType = taskType as GeminiTaskType;
  }
  const dims = field(r, 'outputDimensionality', 'output_dimensionality');
  if (dims !== undefined && dims !== null) {
    if (typeof dims !== 'number' || !Number.isSafeInteger(dims) || dims < 1) throw invalidRequest(`${path}.outputDimensionality must be an integer >= 1`);
    out.dimensions = dims;
  }
  const title = r.title;
  if (title !== undefined && title !== null) {
    if (typeof title !== 'string') throw invalidRequest(`${path}.title must be a string`);
    out.title = title;
  }
  return out;
}

export function encodeGeminiEmbedResponse(resp: EmbeddingResponse, form: GeminiEmbedForm): string {
  if (form === 'single') return JSON.stringify({ embedding: { values: resp.vectors[0] ?? [] } });
  return JSON.stringify({ embeddings: resp.vectors.map((values) => ({ values })) });
}

/**
 * A same-protocol body: the caller's, with every request's `model` (a batch names it in each
 * request, and Gemini refuses one that differs from the path's) set to the lane's.
 */
export function geminiEmbedPassthroughBody(body: unknown, upstreamModel: string, form: GeminiEmbedForm): string {
  const o = expectObject(body, 'request body');
  const name = `models/${upstreamModel}`;
  if (form === 'single') return JSON.stringify(o.model === undefined ? o : { ...o, model: name });
  const requests = expectArray(o.requests, 'requests').map((r) => (isJsonObject(r) ? { ...r, model: name } : r));
  return JSON.stringify({ ...o, requests });
}

// ---------------------------------------------------------------- upstream

/** Always the batch form: it takes any number of inputs, one request each. */
export function encodeGeminiEmbedRequest(req: EmbeddingRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseEmbeddingFeatures(req, 'gemini', { taskType: true, titles: true, tokens: false });
  if (req.truncate === false) {
    throw new GatewayError(
      'untranslatable',
      'truncate=false cannot be translated to the gemini protocol of the selected model: Gemini truncates an over-long input itself',
    );
  }
  const model = `models/${upstreamModel}`;
  const texts = inputTexts(req);
  const requests = texts.map((text, i) => {
    const r: JsonObject = { model, content: { parts: [{ text }] } };
    if (req.taskType !== undefined) r.taskType = req.taskType;
    const title = req.titles?.[i];
    if (title !== undefined) r.title = title;
    if (req.dimensions !== undefined) r.outputDimensionality = req.dimensions;
    return r;
  });
  return { path: geminiEmbedPath(upstreamModel, 'batch'), body: JSON.stringify({ requests }) };
}

/** Either form's answer. Gemini reports no tokens: estimated from the request's text. */
export function decodeGeminiEmbedResponse(body: unknown, req: EmbeddingRequest): EmbeddingResponse {
  const vectors: number[][] = [];
  if (isJsonObject(body) && Array.isArray(body.embeddings)) {
    for (let i = 0; i < body.embeddings.length; i++) vectors.push(valuesOf(body.embeddings[i], `embeddings[${i}]`));
  } else if (isJsonObject(body) && body.embedding !== undefined) {
    vectors.push(valuesOf(body.embedding, 'embedding'));
  } else {
    throw new GatewayError('upstream_error', 'gemini embeddings answer holds neither embeddings nor embedding');
  }
  const reported = geminiEmbedUsage(body);
  const usage = reported !== null ? { inputTokens: reported, estimated: false } : { inputTokens: estimateTextTokens(inputTexts(req)), estimated: true };
  return { model: req.model, vectors, usage };
}

/** A reported count when the answer has one (`usageMetadata.promptTokenCount`), else null: today Gemini's has none. */
export function geminiEmbedUsage(body: unknown): number | null {
  if (!isJsonObject(body) || !isJsonObject(body.usageMetadata) || body.usageMetadata.promptTokenCount === undefined) return null;
  return tokenCount(body.usageMetadata.promptTokenCount);
}

function valuesOf(v: unknown, path: string): number[] {
  const values = isJsonObject(v) ? v.values : undefined;
  if (!Array.isArray(values) || !values.every((x) => typeof x === 'number'))
    throw new GatewayError('upstream_error', `gemini embeddings answer ${path}.values is not a list of numbers`);
  return values as number[];
}
