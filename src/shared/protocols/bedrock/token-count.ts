// Bedrock `CountTokens`: `POST /model/{modelId}/count-tokens` with `{input: {converse: {...}}}`
// (a Converse body: messages, system, toolConfig) or `{input: {invokeModel: {body}}}` (the
// model's native InvokeModel body, base64), answered `{"inputTokens": n}`.
import { Buffer } from 'node:buffer';
import type { ModelRequest } from '../../model/types.js';
import type { TokenCount } from '../../model/token-count.js';
import { GatewayError } from '../../errors.js';
import type { RouteInfo, EncodedUpstreamRequest } from '../codec.js';
import { expectObject, expectString, isJsonObject, tokenCount, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { countable, pickMembers } from '../count-request.js';
import { decodeAnthropicRequest } from '../anthropic/request.js';
import { decodeBedrockRequest, encodeBedrockRequest } from './request.js';

export function bedrockCountPath(modelId: string): string {
  return `/model/${encodeURIComponent(modelId)}/count-tokens`;
}

/** What ConverseTokensRequest takes. */
const CONVERSE_MEMBERS = ['messages', 'system', 'toolConfig', 'additionalModelRequestFields'] as const;

export function decodeBedrockCountRequest(body: unknown, route: RouteInfo): ModelRequest {
  const input = expectObject(expectObject(body, 'request body').input, 'input');
  if (input.converse !== undefined) {
    return countable(decodeBedrockRequest(expectObject(input.converse, 'input.converse'), { ...route, pathStream: false }));
  }
  if (input.invokeModel !== undefined) return countable(decodeInvokeModelBody(expectObject(input.invokeModel, 'input.invokeModel'), route));
  throw invalidRequest('input must hold converse or invokeModel');
}

/**
 * An InvokeModel body is the model's own request format. Across protocols the gateway reads
 * the one most Bedrock callers send, Anthropic Messages (`anthropic_version`, `messages`);
 * any other is refused, and a Bedrock lane takes it unchanged (passthrough).
 */
function decodeInvokeModelBody(invoke: JsonObject, route: RouteInfo): ModelRequest {
  let native: unknown;
  try {
    native = JSON.parse(Buffer.from(expectString(invoke.body, 'input.invokeModel.body'), 'base64').toString('utf8'));
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw invalidRequest('input.invokeModel.body is not base64 JSON');
  }
  if (!isJsonObject(native) || typeof native.anthropic_version !== 'string' || !Array.isArray(native.messages)) {
    throw new GatewayError(
      'untranslatable',
      "input.invokeModel cannot be translated: across protocols the gateway reads an InvokeModel body only in Anthropic's Messages format",
    );
  }
  const { anthropic_version: _v, ...messages } = native;
  return decodeAnthropicRequest({ ...messages, model: route.pathModel ?? '' });
}

/** Always the converse form (the model's own), whatever form the caller used. */
export function encodeBedrockCountRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest {
  const chat = encodeBedrockRequest(countable(req), upstreamModel);
  return { path: bedrockCountPath(upstreamModel), body: JSON.stringify({ input: { converse: pickMembers(chat.body, CONVERSE_MEMBERS) } }) };
}

/** A same-protocol body names no model (it is in the path): unchanged. */
export function bedrockCountPassthrough(raw: string, upstreamModel: string): EncodedUpstreamRequest {
  return { path: bedrockCountPath(upstreamModel), body: raw };
}

export function decodeBedrockCountAnswer(body: unknown): TokenCount {
  if (!isJsonObject(body) || typeof body.inputTokens !== 'number') throw new GatewayError('upstream_error', 'CountTokens answer without inputTokens');
  return { inputTokens: tokenCount(body.inputTokens), estimated: false };
}

export function encodeBedrockCountAnswer(count: TokenCount): string {
  return JSON.stringify({ inputTokens: count.inputTokens });
}
