// Gemini `models/{model}:countTokens`: `{contents}` alone (what @google/genai sends to the
// Gemini API), or `{generateContentRequest: {model, contents, systemInstruction, tools, ...}}`
// (the whole request, so that the system prompt and tools are counted too). Answered
// `{totalTokens, cachedContentTokenCount?, promptTokensDetails?}`.
import type { ModelRequest } from '../../model/types.js';
import type { TokenCount } from '../../model/token-count.js';
import { GatewayError } from '../../errors.js';
import type { RouteInfo, EncodedUpstreamRequest } from '../codec.js';
import { expectObject, isJsonObject, tokenCount, type JsonObject } from '../framing/json-field.js';
import { countable } from '../count-request.js';
import { decodeGeminiRequest, encodeGeminiRequest } from './request.js';
import { field } from './fields.js';

export function geminiCountPath(model: string): string {
  return `/models/${model}:countTokens`;
}

export function decodeGeminiCountRequest(body: unknown, route: RouteInfo): ModelRequest {
  const o = expectObject(body, 'request body');
  const whole = field(o, 'generateContentRequest', 'generate_content_request');
  if (whole !== undefined && whole !== null) {
    if (o.contents !== undefined) throw new GatewayError('invalid_request', 'give contents or generateContentRequest, not both');
    return countable(decodeGeminiRequest(expectObject(whole, 'generateContentRequest'), { ...route, pathStream: false }));
  }
  return countable(decodeGeminiRequest({ contents: o.contents }, { ...route, pathStream: false }));
}

/** Always the whole-request form: it counts the system prompt and the tools as well. */
export function encodeGeminiCountRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  const chat = JSON.parse(encodeGeminiRequest(countable(req), upstreamModel).body) as JsonObject;
  return { path: geminiCountPath(upstreamModel), body: JSON.stringify({ generateContentRequest: { model: `models/${upstreamModel}`, ...chat } }) };
}

/** A same-protocol body: unchanged, but the whole-request form names the model, which must be the lane's. */
export function geminiCountPassthrough(body: unknown, upstreamModel: string): EncodedUpstreamRequest {
  const o = expectObject(body, 'request body');
  const key = o.generateContentRequest !== undefined ? 'generateContentRequest' : o.generate_content_request !== undefined ? 'generate_content_request' : null;
  const out = key === null || !isJsonObject(o[key]) ? o : { ...o, [key]: { ...(o[key] as JsonObject), model: `models/${upstreamModel}` } };
  return { path: geminiCountPath(upstreamModel), body: JSON.stringify(out) };
}

export function decodeGeminiCountAnswer(body: unknown): TokenCount {
  if (!isJsonObject(body)) throw new GatewayError('upstream_error', 'countTokens answer is not an object');
  // An empty prompt is answered {} (proto3 leaves out a zero): that is a count of 0.
  const count: TokenCount = { inputTokens: tokenCount(body.totalTokens), estimated: false };
  if (body.cachedContentTokenCount !== undefined) count.cachedTokens = tokenCount(body.cachedContentTokenCount);
  return count;
}

export function encodeGeminiCountAnswer(count: TokenCount): string {
  const out: JsonObject = { totalTokens: count.inputTokens };
  if (count.cachedTokens !== undefined && count.cachedTokens > 0) out.cachedContentTokenCount = count.cachedTokens;
  return JSON.stringify(out);
}
