// The `responses` protocol: the OpenAI Responses API.
import type { Codec } from '../codec.js';
import { encodeOpenAiError, openAiUpstreamErrorMessage } from '../openai/errors.js';
import { createPassthroughStream, passthroughBody } from './passthrough.js';
import { decodeRequest, encodeRequest, RESPONSES_PATH, requestedModel, requestedStream } from './request.js';
import { decodeResponse, encodeResponse, usageFromResponse } from './response.js';
import { ResponsesStreamDecoder } from './stream-decoder.js';
import { ResponsesStreamEncoder } from './stream-encoder.js';

export const responsesCodec: Codec = {
  name: 'responses',
  streamContentType: 'text/event-stream',

  decodeRequest: (body) => decodeRequest(body),
  requestedModel: (body) => requestedModel(body),
  requestedStream: (body) => requestedStream(body),
  requestMembers: ['model', 'stream'],
  encodeResponse,
  createStreamEncoder: () => new ResponsesStreamEncoder(),
  encodeError: (kind, message, retryAfterSecs) => encodeOpenAiError('responses', kind, message, retryAfterSecs),

  encodeRequest,
  upstreamPath: () => RESPONSES_PATH,
  decodeResponse,
  createStreamDecoder: (memo) => new ResponsesStreamDecoder(memo),
  upstreamErrorMessage: openAiUpstreamErrorMessage,

  // usage always arrives inside response.completed
  streamUsageRequested: () => true,
  passthroughBody: (raw, body, upstreamModel) => passthroughBody(raw, body, upstreamModel),
  passthroughEdit: () => 'model',
  usageFromResponse,
  usageField: 'usage',
  createPassthroughStream: (_body, memo) => createPassthroughStream(memo),
};
