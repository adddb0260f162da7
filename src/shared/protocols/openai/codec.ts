// The `openai` protocol: OpenAI Chat Completions (and the many hosts that speak it).
import type { Codec } from '../codec.js';
import { bodyModel, streamFlagSet } from '../request-members.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
import { encodeOpenAiError, openAiUpstreamErrorMessage } from './errors.js';
import { createPassthroughStream, passthroughBody } from './passthrough.js';
import { CHAT_PATH, decodeRequest, encodeRequest, streamUsageRequested } from './request.js';
import { decodeResponse, encodeResponse, usageFromResponse } from './response.js';
import { ChatStreamDecoder } from './stream-decoder.js';
import { ChatStreamEncoder } from './stream-encoder.js';

export const openaiCodec: Codec = {
  name: 'openai',
  streamContentType: 'text/event-stream',

  decodeRequest: (body) => decodeRequest(body),
  requestedModel: (body) => bodyModel(body),
  requestedStream: (body) => streamFlagSet(body),
  encodeResponse,
  createStreamEncoder: () => new ChatStreamEncoder(),
  encodeError: (kind, message, retryAfterSecs) => encodeOpenAiError('openai', kind, message, retryAfterSecs),

  encodeRequest,
  upstreamPath: () => CHAT_PATH,
  decodeResponse,
  createStreamDecoder: (memo) => new ChatStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage: openAiUpstreamErrorMessage,

  streamUsageRequested,
  passthroughBody,
  usageFromResponse,
  createPassthroughStream: (body, memo) => createPassthroughStream(body, fastPathMemo(memo)),
};

/** openai's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const openaiFastPath: CodecFastPath = {
  requestMembers: ['model', 'stream', 'stream_options'],
  passthroughEdit: (head, stream) => (!stream || streamUsageRequested(head) ? 'model' : undefined),
  usageField: 'usage',
};
