// The `responses` protocol: the OpenAI Responses API.
import type { Codec } from '../codec.js';
import { bodyModel, bodyWithModel, streamFlagSet } from '../request-members.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
import { encodeOpenAiError, openAiUpstreamErrorMessage } from '../openai/errors.js';
import { createPassthroughStream } from './passthrough.js';
import { decodeRequest, encodeRequest, RESPONSES_PATH } from './request.js';
import { decodeResponse, encodeResponse, usageFromResponse } from './response.js';
import { ResponsesStreamDecoder } from './stream-decoder.js';
import { ResponsesStreamEncoder } from './stream-encoder.js';

export const responsesCodec: Codec = {
  name: 'responses',
  streamContentType: 'text/event-stream',

  decodeRequest: (body) => decodeRequest(body),
  requestedModel: (body) => bodyModel(body),
  requestedStream: (body) => streamFlagSet(body),
  encodeResponse,
  createStreamEncoder: () => new ResponsesStreamEncoder(),
  encodeError: (kind, message, retryAfterSecs) => encodeOpenAiError('responses', kind, message, retryAfterSecs),

  encodeRequest,
  upstreamPath: () => RESPONSES_PATH,
  decodeResponse,
  createStreamDecoder: (memo) => new ResponsesStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage: openAiUpstreamErrorMessage,

  // usage always arrives inside response.completed
  streamUsageRequested: () => true,
  passthroughBody: (raw, body, upstreamModel) => bodyWithModel(raw, body, upstreamModel),
  usageFromResponse,
  createPassthroughStream: (_body, memo) => createPassthroughStream(fastPathMemo(memo)),
};

/** responses's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const responsesFastPath: CodecFastPath = {
  requestMembers: ['model', 'stream'],
  passthroughEdit: () => 'model',
  usageField: 'usage',
};
