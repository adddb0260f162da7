// Ollama `POST /api/embed` (input: a string or strings; truncate, dimensions, keep_alive,
// options) and the older `POST /api/embeddings` (prompt -> one embedding) <-> the embedding
// model. Upstream the gateway always writes /api/embed, which takes everything the model holds.
import type { EmbeddingInput, EmbeddingRequest, EmbeddingResponse } from '../../model/embeddings.js';
import { estimateTextTokens } from '../../model/token-count.js';
import { GatewayError } from '../../errors.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { expectArray, expectObject, expectString, isJsonObject, optionalBoolean, optionalInteger, tokenCount, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { inputTexts, refuseEmbeddingFeatures } from '../embedding-refusal.js';

/** `embed`: /api/embed; `legacy`: /api/embeddings (one prompt, one vector, no usage). */
export type OllamaEmbedForm = 'embed' | 'legacy';

export const EMBED_PATH = '/api/embed';
export const LEGACY_EMBEDDINGS_PATH = '/api/embeddings';

// ---------------------------------------------------------------- ingress

export function decodeOllamaEmbedRequest(body: unknown, form: OllamaEmbedForm): EmbeddingRequest {
  const o = expectObject(body, 'request body');
  const req: EmbeddingRequest = { model: expectString(o.model, 'model'), inputs: decodeInputs(o, form), encodingFormat: 'float' };
  const keepAlive = o.keep_alive;
  if (keepAlive !== undefined && keepAlive !== null) {
    if (typeof keepAlive !== 'string' && typeof keepAlive !== 'number')
      throw invalidRequest('request.keep_alive must be a duration string or a number of seconds');
    req.keepAlive = keepAlive;
  }
  if (form === 'embed') {
    const truncate = optionalBoolean(o, 'truncate', 'request');
    if (truncate !== undefined) req.truncate = truncate;
    const dimensions = optionalInteger(o, 'dimensions', 'request', 1);
    if (dimensions !== undefined) req.dimensions = dimensions;
  }
  return req;
}

function decodeInputs(o: JsonObject, form: OllamaEmbedForm): EmbeddingInput[] {
  if (form === 'legacy') return [{ type: 'text', text: expectString(o.prompt, 'prompt') }];
  if (typeof o.input === 'string') return [{ type: 'text', text: o.input }];
  const list = expectArray(o.input, 'input');
  if (list.length === 0) throw invalidRequest('input must not be empty');
  return list.map((item, i) => ({ type: 'text', text: expectString(item, `input[${i}]`) }));
}

export function encodeOllamaEmbedResponse(resp: EmbeddingResponse, form: OllamaEmbedForm): string {
  if (form === 'legacy') return JSON.stringify({ embedding: resp.vectors[0] ?? [] });
  // Ollama's own timings are the server's; the gateway has none of the lane's to give.
  return JSON.stringify({ model: resp.model, embeddings: resp.vectors, total_duration: 0, load_duration: 0, prompt_eval_count: resp.usage.inputTokens });
}

// ---------------------------------------------------------------- upstream

export function encodeOllamaEmbedRequest(req: EmbeddingRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseEmbeddingFeatures(req, 'ollama', { taskType: false, titles: false, tokens: false });
  const body: JsonObject = { model: upstreamModel, input: inputTexts(req) };
  if (req.truncate !== undefined) body.truncate = req.truncate;
  if (req.dimensions !== undefined) body.dimensions = req.dimensions;
  if (req.keepAlive !== undefined) body.keep_alive = req.keepAlive;
  return { path: EMBED_PATH, body: JSON.stringify(body) };
}

/** Either form's answer; the legacy form reports no tokens, so they are estimated. */
export function decodeOllamaEmbedResponse(body: unknown, req: EmbeddingRequest): EmbeddingResponse {
  if (!isJsonObject(body)) throw new GatewayError('upstream_error', 'ollama embeddings answer is not an object');
  let vectors: number[][];
  if (Array.isArray(body.embeddings)) vectors = body.embeddings.map((v, i) => vectorOf(v, `embeddings[${i}]`));
  else if (body.embedding !== undefined) vectors = [vectorOf(body.embedding, 'embedding')];
  else throw new GatewayError('upstream_error', 'ollama embeddings answer holds neither embeddings nor embedding');
  const model = typeof body.model === 'string' && body.model !== '' ? body.model : req.model;
  const reported = ollamaEmbedUsage(body);
  const usage = reported !== null ? { inputTokens: reported, estimated: false } : { inputTokens: estimateTextTokens(inputTexts(req)), estimated: true };
  return { model, vectors, usage };
}

/** `prompt_eval_count`, or null when the answer has none (the legacy form). */
export function ollamaEmbedUsage(body: unknown): number | null {
  if (!isJsonObject(body) || body.prompt_eval_count === undefined) return null;
  return tokenCount(body.prompt_eval_count);
}

function vectorOf(v: unknown, path: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number'))
    throw new GatewayError('upstream_error', `ollama embeddings answer ${path} is not a list of numbers`);
  return v as number[];
}
