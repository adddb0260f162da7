// The token-count request kind's codecs: four caller routes (Anthropic count_tokens, Gemini
// countTokens, Responses input_tokens, Bedrock CountTokens) and, per lane protocol, its own
// counting endpoint, or the gateway's estimate where it has none (OpenAI Chat Completions,
// Ollama). A count request is decoded into the ModelRequest its chat request would be (each
// protocol's chat decode), so it is routed like a chat request and translated like one.
import { bodyModel } from './request-members.js';
import type { ProtocolName, ModelRequest } from '../model/types.js';
import { estimatedCount, TOKEN_COUNT_ESTIMATE, TOKEN_COUNT_HEADER, type TokenCount } from '../model/token-count.js';
import type { EncodedUpstreamRequest, RouteInfo } from './codec.js';
import {
  anthropicCountPassthrough,
  decodeAnthropicCountAnswer,
  decodeAnthropicCountRequest,
  encodeAnthropicCountAnswer,
  encodeAnthropicCountRequest,
} from './anthropic/token-count.js';
import {
  decodeGeminiCountAnswer,
  decodeGeminiCountRequest,
  encodeGeminiCountAnswer,
  encodeGeminiCountRequest,
  geminiCountPassthrough,
} from './gemini/token-count.js';
import {
  decodeResponsesCountAnswer,
  decodeResponsesCountRequest,
  encodeResponsesCountAnswer,
  encodeResponsesCountRequest,
  responsesCountPassthrough,
} from './responses/token-count.js';
import {
  bedrockCountPassthrough,
  decodeBedrockCountAnswer,
  decodeBedrockCountRequest,
  encodeBedrockCountAnswer,
  encodeBedrockCountRequest,
} from './bedrock/token-count.js';

/** The protocols whose callers have a counting route. */
export type CountProtocol = 'anthropic' | 'gemini' | 'responses' | 'bedrock';

/** The caller's side. */
export interface CountIngress {
  readonly protocol: CountProtocol;
  /** The model the caller named (body or path) without a full decode. */
  requestedModel(body: unknown, route: RouteInfo): string | undefined;
  /** Parsed body -> the ModelRequest whose input is counted (stream false, no generation settings). */
  decodeRequest(body: unknown, route: RouteInfo): ModelRequest;
  /** The count (from the lane or estimated) -> the caller's answer body (JSON). */
  encodeAnswer(count: TokenCount): string;
  /** A same-protocol lane: its counting path and the caller's body with only the model changed. */
  passthrough(raw: string, body: unknown, upstreamModel: string): EncodedUpstreamRequest;
}

/** The lane's side, for a protocol with a counting endpoint. */
export interface CountUpstream {
  encodeRequest(req: ModelRequest, upstreamModel: string): EncodedUpstreamRequest;
  /** The lane's parsed answer -> the count. */
  decodeAnswer(body: unknown): TokenCount;
}

const pathModel = (_body: unknown, route: RouteInfo): string | undefined => route.pathModel;

export const COUNT_INGRESS: Readonly<Record<CountProtocol, CountIngress>> = {
  anthropic: {
    protocol: 'anthropic',
    requestedModel: bodyModel,
    decodeRequest: (body) => decodeAnthropicCountRequest(body),
    encodeAnswer: encodeAnthropicCountAnswer,
    passthrough: anthropicCountPassthrough,
  },
  gemini: {
    protocol: 'gemini',
    requestedModel: pathModel,
    decodeRequest: decodeGeminiCountRequest,
    encodeAnswer: encodeGeminiCountAnswer,
    passthrough: (_raw, body, upstreamModel) => geminiCountPassthrough(body, upstreamModel),
  },
  responses: {
    protocol: 'responses',
    requestedModel: bodyModel,
    decodeRequest: (body) => decodeResponsesCountRequest(body),
    encodeAnswer: encodeResponsesCountAnswer,
    passthrough: responsesCountPassthrough,
  },
  bedrock: {
    protocol: 'bedrock',
    requestedModel: pathModel,
    decodeRequest: decodeBedrockCountRequest,
    encodeAnswer: encodeBedrockCountAnswer,
    passthrough: (raw, _body, upstreamModel) => bedrockCountPassthrough(raw, upstreamModel),
  },
};

/** Lanes with a counting endpoint; OpenAI Chat Completions and Ollama have none. */
export const COUNT_UPSTREAM: Readonly<Partial<Record<ProtocolName, CountUpstream>>> = {
  anthropic: { encodeRequest: encodeAnthropicCountRequest, decodeAnswer: decodeAnthropicCountAnswer },
  gemini: { encodeRequest: encodeGeminiCountRequest, decodeAnswer: decodeGeminiCountAnswer },
  responses: { encodeRequest: encodeResponsesCountRequest, decodeAnswer: decodeResponsesCountAnswer },
  bedrock: { encodeRequest: encodeBedrockCountRequest, decodeAnswer: decodeBedrockCountAnswer },
};

/** How a count request is answered on a lane: by the lane's own endpoint, or by the estimate with no upstream call. */
export type CountPlan =
  | { kind: 'upstream'; request: EncodedUpstreamRequest; decodeAnswer: (body: unknown) => TokenCount }
  | { kind: 'estimate'; count: TokenCount };

/**
 * The plan for a decoded count request on a lane of `lane`'s protocol. Same protocol as the
 * caller: the caller's bytes (passthrough). Throws TranslationRefused when the lane cannot
 * carry a content part (as a chat request would be refused).
 */
export function planCount(caller: CountIngress, req: ModelRequest, raw: string, body: unknown, lane: ProtocolName, upstreamModel: string): CountPlan {
  const upstream = COUNT_UPSTREAM[lane];
  if (upstream === undefined) return { kind: 'estimate', count: estimatedCount(req) };
  const request = lane === caller.protocol ? caller.passthrough(raw, body, upstreamModel) : upstream.encodeRequest(req, upstreamModel);
  return { kind: 'upstream', request, decodeAnswer: upstream.decodeAnswer };
}

/** The caller's answer headers: JSON, and the estimate mark when the gateway counted. */
export function countAnswerHeaders(count: TokenCount): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (count.estimated) headers[TOKEN_COUNT_HEADER] = TOKEN_COUNT_ESTIMATE;
  return headers;
}
