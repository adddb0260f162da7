// The Gemini generateContent codec: model and streaming in the path
// (`/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`), SSE `data:` chunks.
import type { Codec } from '../codec.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
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
  encodeResponse: encodeGeminiResponse,
  createStreamEncoder: () => new GeminiStreamEncoder(),
  encodeError: encodeGeminiError,

  encodeRequest: encodeGeminiRequest,
  upstreamPath: geminiPath,
  decodeResponse: decodeGeminiResponse,
  createStreamDecoder: (memo) => new GeminiStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage: geminiUpstreamErrorMessage,

  streamUsageRequested: () => true,

  passthroughBody: (raw) => raw,
  usageFromResponse: geminiUsageFromResponse,
  createPassthroughStream: () => new WholeEventsPassthrough(new GeminiPassthroughStream(), sseEventEnds),
};

/** gemini's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const geminiFastPath: CodecFastPath = {
  requestMembers: [],
  passthroughEdit: () => 'none',
  usageField: 'usageMetadata',
};
