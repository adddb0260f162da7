// The Anthropic Messages codec: `POST /v1/messages`, model and stream flag in the body,
// SSE with named events.
import type { Codec } from '../codec.js';
import { bodyModel, bodyWithModel, streamFlagSet } from '../request-members.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
import { anthropicUpstreamErrorMessage, encodeAnthropicError } from './errors.js';
import { anthropicPassthroughStream, anthropicUsageFromResponse } from './passthrough.js';
import { decodeAnthropicRequest, encodeAnthropicRequest, MESSAGES_PATH } from './request.js';
import { decodeAnthropicResponse, encodeAnthropicResponse } from './response.js';
import { AnthropicStreamDecoder } from './stream-decoder.js';
import { AnthropicStreamEncoder } from './stream-encoder.js';
import { WholeEventsPassthrough, sseEventEnds } from '../framing/whole-events.js';

export const anthropicCodec: Codec = {
  name: 'anthropic',
  streamContentType: 'text/event-stream',
  // A same-protocol request keeps the caller's version and betas: its body is written for them
  // (a translated request is written by us for the provider's configured version).
  callerHeaders: ['anthropic-version', 'anthropic-beta'],

  decodeRequest: (body) => decodeAnthropicRequest(body),
  requestedModel: (body) => bodyModel(body),
  requestedStream: (body) => streamFlagSet(body),
  encodeResponse: encodeAnthropicResponse,
  createStreamEncoder: () => new AnthropicStreamEncoder(),
  encodeError: encodeAnthropicError,

  encodeRequest: encodeAnthropicRequest,
  upstreamPath: () => MESSAGES_PATH,
  decodeResponse: decodeAnthropicResponse,
  createStreamDecoder: (memo) => new AnthropicStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage: anthropicUpstreamErrorMessage,

  streamUsageRequested: () => true,

  passthroughBody: (raw, body, upstreamModel) => bodyWithModel(raw, body, upstreamModel),
  usageFromResponse: anthropicUsageFromResponse,
  createPassthroughStream: (_body, memo) => new WholeEventsPassthrough(anthropicPassthroughStream(fastPathMemo(memo)), sseEventEnds),
};

/** anthropic's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const anthropicFastPath: CodecFastPath = {
  requestMembers: ['model', 'stream'],
  passthroughEdit: () => 'model',
  usageField: 'usage',
};
