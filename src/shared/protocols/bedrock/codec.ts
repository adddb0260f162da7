// The Bedrock Converse codec: model id and streaming in the path
// (`/model/{modelId}/converse`, `/converse-stream`), binary AWS event stream for streams.
import type { Codec } from '../codec.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
import { bedrockUpstreamErrorMessage, encodeBedrockError } from './errors.js';
import { BedrockPassthroughStream, bedrockUsageFromResponse } from './passthrough.js';
import { bedrockPath, decodeBedrockRequest, encodeBedrockRequest } from './request.js';
import { decodeBedrockResponse, encodeBedrockResponse } from './response.js';
import { BedrockStreamDecoder } from './stream-decoder.js';
import { BedrockStreamEncoder } from './stream-encoder.js';
import { EventStreamFrameEnds, WholeEventsPassthrough } from '../framing/whole-events.js';

export const bedrockCodec: Codec = {
  name: 'bedrock',
  streamContentType: 'application/vnd.amazon.eventstream',

  decodeRequest: decodeBedrockRequest,
  requestedModel: (_body, route) => route.pathModel,
  requestedStream: (_body, route) => route.pathStream === true,
  encodeResponse: encodeBedrockResponse,
  createStreamEncoder: () => new BedrockStreamEncoder(),
  encodeError: encodeBedrockError,

  encodeRequest: encodeBedrockRequest,
  upstreamPath: bedrockPath,
  decodeResponse: decodeBedrockResponse,
  createStreamDecoder: (memo) => new BedrockStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage: bedrockUpstreamErrorMessage,

  streamUsageRequested: () => true,

  passthroughBody: (raw) => raw,
  usageFromResponse: bedrockUsageFromResponse,
  createPassthroughStream: () => new WholeEventsPassthrough(new BedrockPassthroughStream(), new EventStreamFrameEnds()),
};

/** bedrock's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const bedrockFastPath: CodecFastPath = {
  requestMembers: [],
  passthroughEdit: () => 'none',
  usageField: 'usage',
};
