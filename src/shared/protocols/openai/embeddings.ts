// OpenAI `POST /v1/embeddings` <-> the embedding model. `input` is a string, strings, token
// ids or arrays of token ids; `encoding_format` base64 is little-endian float32 (what the
// openai SDK asks for when its caller did not choose, and decodes itself).
import { Buffer } from 'node:buffer';
import type { EmbeddingInput, EmbeddingRequest, EmbeddingResponse } from '../../model/embeddings.js';
import { estimateTextTokens } from '../../model/token-count.js';
import { GatewayError } from '../../errors.js';
import type { EncodedUpstreamRequest } from '../codec.js';
import { expectArray, expectObject, expectString, isJsonObject, optionalInteger, optionalString, tokenCount, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { refuseEmbeddingFeatures } from '../embedding-refusal.js';

/** Appended to an OpenAI provider's base URL (which ends in /v1). */
export const EMBEDDINGS_PATH = '/embeddings';

// ---------------------------------------------------------------- ingress

export function decodeOpenAiEmbeddingRequest(body: unknown): EmbeddingRequest {
  const o = expectObject(body, 'request body');
  const format = optionalString(o, 'encoding_format', 'request') ?? 'float';
  if (format !== 'float' && format !== 'base64') throw invalidRequest(`request.encoding_format must be "float" or "base64", got "${format}"`);
  const req: EmbeddingRequest = { model: expectString(o.model, 'model'), inputs: decodeInput(o.input), encodingFormat: format };
  const dimensions = optionalInteger(o, 'dimensions', 'request', 1);
  if (dimensions !== undefined) req.dimensions = dimensions;
  const user = optionalString(o, 'user', 'request');
  if (user !== undefined) req.user = user;
  return req;
}

function decodeInput(v: unknown): EmbeddingInput[] {
  if (typeof v === 'string') return [textInput(v, 'input')];
  const list = expectArray(v, 'input');
  if (list.length === 0) throw invalidRequest('input must not be empty');
  // One array of integers is one input's token ids; an array of arrays, one input each.
  if (typeof list[0] === 'number') return [{ type: 'tokens', tokens: tokenIds(list, 'input') }];
  return list.map((item, i) => {
    if (typeof item === 'string') return textInput(item, `input[${i}]`);
    return { type: 'tokens', tokens: tokenIds(expectArray(item, `input[${i}]`), `input[${i}]`) };
  });
}

function textInput(text: string, path: string): EmbeddingInput {
  if (text.length === 0) throw invalidRequest(`${path} must not be an empty string`);
  return { type: 'text', text };
}

function tokenIds(list: unknown[], path: string): number[] {
  if (list.length === 0) throw invalidRequest(`${path} must not be empty`);
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) throw invalidRequest(`${path}[${i}] must be a token id (an integer >= 0)`);
  }
  return list as number[];
}

/** The caller's answer: vectors as floats, or base64 when the caller asked for it. */
export function encodeOpenAiEmbeddingResponse(resp: EmbeddingResponse, req: EmbeddingRequest): string {
  const base64 = req.encodingFormat === 'base64';
  const data = resp.vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? float32Base64(v) : v }));
  const tokens = resp.usage.inputTokens;
  return JSON.stringify({ object: 'list', data, model: resp.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

// ---------------------------------------------------------------- upstream

export function encodeOpenAiEmbeddingRequest(req: EmbeddingRequest, upstreamModel: string): EncodedUpstreamRequest {
  refuseEmbeddingFeatures(req, 'openai', { taskType: false, titles: false, tokens: true });
  const texts = req.inputs.every((i) => i.type === 'text');
  if (!texts && req.inputs.some((i) => i.type === 'text')) throw invalidRequest('input mixes text and token ids; OpenAI takes one kind per request');
  const body: JsonObject = {
    model: upstreamModel,
    input: req.inputs.map((i) => (i.type === 'text' ? i.text : i.tokens)),
    encoding_format: req.encodingFormat,
  };
  if (req.dimensions !== undefined) body.dimensions = req.dimensions;
  if (req.user !== undefined) body.user = req.user;
  return { path: EMBEDDINGS_PATH, body: JSON.stringify(body) };
}

/** The upstream's answer; usage estimated from the request's text when the host reported none. */
export function decodeOpenAiEmbeddingResponse(body: unknown, req: EmbeddingRequest): EmbeddingResponse {
  if (!isJsonObject(body) || !Array.isArray(body.data)) throw new GatewayError('upstream_error', 'embeddings answer without a data array');
  const data: unknown[] = body.data;
  const vectors: number[][] = new Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    if (!isJsonObject(item)) throw new GatewayError('upstream_error', `embeddings answer data[${i}] is not an object`);
    const index = typeof item.index === 'number' && Number.isInteger(item.index) ? item.index : i;
    if (index < 0 || index >= vectors.length || vectors[index] !== undefined)
      throw new GatewayError('upstream_error', `embeddings answer data[${i}].index ${index} is out of place`);
    vectors[index] = vectorOf(item.embedding, i);
  }
  const model = typeof body.model === 'string' && body.model !== '' ? body.model : req.model;
  const reported = openAiEmbeddingUsage(body);
  return { model, vectors, usage: reported !== null ? { inputTokens: reported, estimated: false } : estimatedUsage(req) };
}

/** `usage.prompt_tokens` of an answer, or null when it has none (for a same-protocol body's metering). */
export function openAiEmbeddingUsage(body: unknown): number | null {
  if (!isJsonObject(body) || !isJsonObject(body.usage) || body.usage.prompt_tokens === undefined) return null;
  return tokenCount(body.usage.prompt_tokens);
}

function estimatedUsage(req: EmbeddingRequest): EmbeddingResponse['usage'] {
  let tokens = 0;
  const texts: string[] = [];
  for (const i of req.inputs) {
    if (i.type === 'text') texts.push(i.text);
    else tokens += i.tokens.length;
  }
  return { inputTokens: tokens + estimateTextTokens(texts), estimated: true };
}

function vectorOf(v: unknown, at: number): number[] {
  if (typeof v === 'string') return float32FromBase64(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  throw new GatewayError('upstream_error', `embeddings answer data[${at}].embedding is neither numbers nor base64`);
}

// ---------------------------------------------------------------- base64 float32 (little-endian)

export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

export function float32FromBase64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new GatewayError('upstream_error', 'a base64 embedding is not whole float32 values');
  const out = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
