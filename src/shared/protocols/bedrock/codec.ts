// The Bedrock Converse codec: model id and streaming in the path
// (`/model/{modelId}/converse`, `/converse-stream`), binary AWS event stream for streams.
import type { Codec } from '../codec.js';
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
  requestMembers: [],
  encodeResponse: encodeBedrockResponse,
  createStreamEncoder: () => new BedrockStreamEncoder(),
  encodeError: encodeBedrockError,

  encodeRequest: encodeBedrockRequest,
  upstreamPath: bedrockPath,
  decodeResponse: decodeBedrockResponse,
  createStreamDecoder: (memo) => new BedrockStreamDecoder(memo),
  upstreamErrorMessage: bedrockUpstreamErrorMessage,

  streamUsageRequested: () => true,

  passthroughBody: (raw) => raw,
  passthroughEdit: () => 'none',
  usageFromResponse: bedrockUsageFromResponse,
  usageField: 'usage',
  createPassthroughStream: () => new WholeEventsPassthrough(new BedrockPassthroughStream(), new EventStreamFrameEnds()),
};
