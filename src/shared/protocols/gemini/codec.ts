// The Gemini generateContent codec: model and streaming in the path
// (`/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`), SSE `data:` chunks.
import type { Codec } from '../codec.js';
import { encodeGeminiError, geminiUpstreamErrorMessage } from './errors.js';
import { GeminiPassthroughStream, geminiUsageFromResponse } from './passthrough.js';
import { decodeGeminiRequest, encodeGeminiRequest, geminiPath } from './request.js';
import { decodeGeminiResponse, encodeGeminiResponse } from './response.js';
import { GeminiStreamDecoder } from './stream-decoder.js';
import { GeminiStreamEncoder } from './stream-encoder.js';
import { geminiRouteInfo } from './route-action.js';
import { WholeEventsPassthrough, sseEventEnds } from '../framing/whole-events.js';

export const geminiCodec: Codec = {
  name: 'gemini',
  streamContentType: 'text/event-stream',

  routeInfoOf: geminiRouteInfo,
  decodeRequest: decodeGeminiRequest,
  requestedModel: (_body, route) => route.pathModel,
  requestedStream: (_body, route) => route.pathStream === true,
  requestMembers: [],
  encodeResponse: encodeGeminiResponse,
  createStreamEncoder: () => new GeminiStreamEncoder(),
  encodeError: encodeGeminiError,

  encodeRequest: encodeGeminiRequest,
  upstreamPath: geminiPath,
  decodeResponse: decodeGeminiResponse,
  createStreamDecoder: (memo) => new GeminiStreamDecoder(memo),
  upstreamErrorMessage: geminiUpstreamErrorMessage,

  streamUsageRequested: () => true,

  passthroughBody: (raw) => raw,
  passthroughEdit: () => 'none',
  usageFromResponse: geminiUsageFromResponse,
  usageField: 'usageMetadata',
  createPassthroughStream: () => new WholeEventsPassthrough(new GeminiPassthroughStream(), sseEventEnds),
};
