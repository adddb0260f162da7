// The embeddings request kind's codecs: five caller routes (OpenAI, Gemini's two, Ollama's two)
// and three lane protocols, meeting in the embedding model (model/embeddings.ts). A request
// kind step decodes with the route's ingress codec, encodes with the lane's upstream codec,
// decodes the lane's answer with it, and encodes the caller's answer with the route's codec;
// a same-protocol request skips the model with `passthroughBody` and `usageFromResponse`.
import { bodyModel, bodyWithModel } from './request-members.js';
import type { EmbeddingRequest, EmbeddingResponse, EmbeddingUsage } from '../model/embeddings.js';
import { ZERO_USAGE, type ProtocolName, type Usage } from '../model/types.js';
import type { EncodedUpstreamRequest } from './codec.js';
import {
  decodeOpenAiEmbeddingRequest,
  decodeOpenAiEmbeddingResponse,
  encodeOpenAiEmbeddingRequest,
  encodeOpenAiEmbeddingResponse,
  EMBEDDINGS_PATH,
  openAiEmbeddingUsage,
} from './openai/embeddings.js';
import {
  decodeGeminiEmbedRequest,
  decodeGeminiEmbedResponse,
  encodeGeminiEmbedRequest,
  encodeGeminiEmbedResponse,
  geminiEmbedPassthroughBody,
  geminiEmbedPath,
  geminiEmbedUsage,
  type GeminiEmbedForm,
} from './gemini/embeddings.js';
import {
  decodeOllamaEmbedRequest,
  decodeOllamaEmbedResponse,
  EMBED_PATH,
  encodeOllamaEmbedRequest,
  encodeOllamaEmbedResponse,
  LEGACY_EMBEDDINGS_PATH,
  ollamaEmbedUsage,
  type OllamaEmbedForm,
} from './ollama/embeddings.js';
import { GatewayError } from '../errors.js';

/** A caller's embeddings route (the data-plane path it posted to). */
export type EmbeddingsRoute = 'openai' | 'gemini-embed' | 'gemini-batch' | 'ollama-embed' | 'ollama-embeddings';

/** The protocols whose lanes serve embeddings. */
export type EmbeddingsProtocol = 'openai' | 'gemini' | 'ollama';

/** The caller's side of one route. */
export interface EmbeddingsIngress {
  /** The protocol whose error shape the caller reads (CODECS[protocol].encodeError). */
  readonly protocol: EmbeddingsProtocol;
  /** The model the caller named (body or path), without a full decode; undefined when none. */
  requestedModel(body: unknown, pathModel: string | undefined): string | undefined;
  /** Parsed body -> the model. Throws GatewayError('invalid_request') on a shape it cannot read. */
  decodeRequest(body: unknown, pathModel: string | undefined): EmbeddingRequest;
  /** The lane's answer (from any protocol) -> the caller's answer body (JSON). */
  encodeResponse(resp: EmbeddingResponse, req: EmbeddingRequest): string;
  /** Same-protocol lane: the upstream path and the caller's body with only the model changed. */
  passthrough(raw: string, body: unknown, upstreamModel: string): EncodedUpstreamRequest;
}

/** The lane's side of one protocol. */
export interface EmbeddingsUpstream {
  /** The model -> the lane's request. Throws TranslationRefused for what the lane cannot honour. */
  encodeRequest(req: EmbeddingRequest, upstreamModel: string): EncodedUpstreamRequest;
  /** The lane's parsed answer -> the model; usage estimated (and marked) when it reported none. */
  decodeResponse(body: unknown, req: EmbeddingRequest): EmbeddingResponse;
  /** The input tokens a same-protocol answer reported, or null when it reported none (estimate them). */
  usageFromResponse(body: unknown): number | null;
}

const pathModelOnly = (_body: unknown, pathModel: string | undefined): string | undefined => pathModel;

function geminiIngress(form: GeminiEmbedForm): EmbeddingsIngress {
  return {
    protocol: 'gemini',
    requestedModel: pathModelOnly,
    decodeRequest: (body, pathModel) => decodeGeminiEmbedRequest(body, pathModel, form),
    encodeResponse: (resp) => encodeGeminiEmbedResponse(resp, form),
    passthrough: (_raw, body, upstreamModel) => ({ path: geminiEmbedPath(upstreamModel, form), body: geminiEmbedPassthroughBody(body, upstreamModel, form) }),
  };
}

function ollamaIngress(form: OllamaEmbedForm): EmbeddingsIngress {
  return {
    protocol: 'ollama',
    requestedModel: bodyModel,
    decodeRequest: (body) => decodeOllamaEmbedRequest(body, form),
    encodeResponse: (resp) => encodeOllamaEmbedResponse(resp, form),
    passthrough: (raw, body, upstreamModel) => ({
      path: form === 'embed' ? EMBED_PATH : LEGACY_EMBEDDINGS_PATH,
      body: bodyWithModel(raw, body, upstreamModel),
    }),
  };
}

export const EMBEDDINGS_INGRESS: Readonly<Record<EmbeddingsRoute, EmbeddingsIngress>> = {
  openai: {
    protocol: 'openai',
    requestedModel: bodyModel,
    decodeRequest: decodeOpenAiEmbeddingRequest,
    encodeResponse: encodeOpenAiEmbeddingResponse,
    passthrough: (raw, body, upstreamModel) => ({ path: EMBEDDINGS_PATH, body: bodyWithModel(raw, body, upstreamModel) }),
  },
  'gemini-embed': geminiIngress('single'),
  'gemini-batch': geminiIngress('batch'),
  'ollama-embed': ollamaIngress('embed'),
  'ollama-embeddings': ollamaIngress('legacy'),
};

/** A lane's answer must hold one vector per input: fewer or more cannot be matched to them. */
function oneVectorEach(decode: EmbeddingsUpstream['decodeResponse']): EmbeddingsUpstream['decodeResponse'] {
  return (body, req) => {
    const resp = decode(body, req);
    if (resp.vectors.length !== req.inputs.length) {
      throw new GatewayError('upstream_error', `the embeddings answer holds ${resp.vectors.length} vectors for ${req.inputs.length} inputs`);
    }
    return resp;
  };
}

export const EMBEDDINGS_UPSTREAM: Readonly<Record<EmbeddingsProtocol, EmbeddingsUpstream>> = {
  openai: {
    encodeRequest: encodeOpenAiEmbeddingRequest,
    decodeResponse: oneVectorEach(decodeOpenAiEmbeddingResponse),
    usageFromResponse: openAiEmbeddingUsage,
  },
  gemini: { encodeRequest: encodeGeminiEmbedRequest, decodeResponse: oneVectorEach(decodeGeminiEmbedResponse), usageFromResponse: geminiEmbedUsage },
  ollama: { encodeRequest: encodeOllamaEmbedRequest, decodeResponse: oneVectorEach(decodeOllamaEmbedResponse), usageFromResponse: ollamaEmbedUsage },
};

/**
 * The embeddings protocol a lane of `protocol` speaks, or null when it has none (Anthropic and
 * Bedrock Converse have no embeddings). A Responses lane is an OpenAI host: its /embeddings.
 */
export function embeddingsProtocolOf(protocol: ProtocolName): EmbeddingsProtocol | null {
  switch (protocol) {
    case 'openai':
    case 'responses':
      return 'openai';
    case 'gemini':
    case 'ollama':
      return protocol;
    default:
      return null;
  }
}

/** How an embeddings request goes to a lane: the request to send and how to read the answer. */
export interface EmbeddingsPlan {
  request: EncodedUpstreamRequest;
  /** The lane speaks the caller's route protocol: its answer may go back as it came (metered by usageFromResponse). */
  sameProtocol: boolean;
  upstream: EmbeddingsUpstream;
}

/**
 * The plan for a decoded request on a lane of `lane`'s protocol: the caller's bytes when the
 * lane speaks the route's protocol, else the translation. Throws GatewayError('untranslatable')
 * for a lane with no embeddings, and TranslationRefused for what the lane cannot honour.
 */
export function planEmbeddings(
  route: EmbeddingsIngress,
  req: EmbeddingRequest,
  raw: string,
  body: unknown,
  lane: ProtocolName,
  upstreamModel: string,
): EmbeddingsPlan {
  const protocol = embeddingsProtocolOf(lane);
  if (protocol === null)
    throw new GatewayError('untranslatable', `embeddings cannot be served by the ${lane} protocol of the selected model: it has no embeddings endpoint`);
  const upstream = EMBEDDINGS_UPSTREAM[protocol];
  const sameProtocol = protocol === route.protocol;
  return { request: sameProtocol ? route.passthrough(raw, body, upstreamModel) : upstream.encodeRequest(req, upstreamModel), sameProtocol, upstream };
}

/** What an embeddings answer meters: its input tokens (an estimate when the lane reported none, see EmbeddingUsage.estimated). */
export function embeddingsUsage(usage: EmbeddingUsage): Usage {
  return { ...ZERO_USAGE, input: usage.inputTokens };
}
