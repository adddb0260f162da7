// The `openai` protocol: OpenAI Chat Completions (and the many hosts that speak it).
import type { Codec } from '../codec.js';
import { encodeOpenAiError, openAiUpstreamErrorMessage } from './errors.js';
import { createPassthroughStream, passthroughBody } from './passthrough.js';
import {
  CHAT_PATH, decodeRequest, encodeRequest, requestedModel, requestedStream, streamUsageRequested,
} from './request.js';
import { decodeResponse, encodeResponse, usageFromResponse } from './response.js';
import { ChatStreamDecoder } from './stream-decoder.js';
import { ChatStreamEncoder } from './stream-encoder.js';

export const openaiCodec: Codec = {
  name: 'openai',
  streamContentType: 'text/event-stream',

  decodeRequest: (body) => decodeRequest(body),
  requestedModel: (body) => requestedModel(body),
  requestedStream: (body) => requestedStream(body),
  requestMembers: ['model', 'stream', 'stream_options'],
  encodeResponse,
  createStreamEncoder: () => new ChatStreamEncoder(),
  encodeError: (kind, message, retryAfterSecs) => encodeOpenAiError('openai', kind, message, retryAfterSecs),

  encodeRequest,
  upstreamPath: () => CHAT_PATH,
  decodeResponse,
  createStreamDecoder: (memo) => new ChatStreamDecoder(memo),
  upstreamErrorMessage: openAiUpstreamErrorMessage,

  streamUsageRequested,
  passthroughBody,
  passthroughEdit: (head, stream) => (!stream || streamUsageRequested(head) ? 'model' : undefined),
  usageFromResponse,
  usageField: 'usage',
  createPassthroughStream,
};
