// The `ollama` protocol: Ollama's native /api/chat (NDJSON streams, streaming by default).
import type { Codec } from '../codec.js';
import { bodyModel, bodyWithModel } from '../request-members.js';
import { fastPathMemo, type CodecFastPath } from '../fast-path/codec-fast-path.js';
import { encodeError, upstreamErrorMessage } from './errors.js';
import { OllamaPassthroughStream } from './passthrough.js';
import { CHAT_PATH, decodeRequest, encodeRequest, requestedStream } from './request.js';
import { decodeResponse, encodeResponse, usageFromResponse } from './response.js';
import { OllamaStreamDecoder } from './stream-decoder.js';
import { OllamaStreamEncoder } from './stream-encoder.js';
import { WholeEventsPassthrough, ndjsonEventEnds } from '../framing/whole-events.js';

export const ollamaCodec: Codec = {
  name: 'ollama',
  streamContentType: 'application/x-ndjson',
  // Ollama ignores the content type, and its docs' `curl -d` examples send a form type.
  acceptsAnyContentType: true,

  decodeRequest: (body) => decodeRequest(body),
  requestedModel: (body) => bodyModel(body),
  requestedStream: (body) => requestedStream(body),
  encodeResponse,
  createStreamEncoder: () => new OllamaStreamEncoder(),
  encodeError,

  encodeRequest,
  upstreamPath: () => CHAT_PATH,
  decodeResponse,
  createStreamDecoder: (memo) => new OllamaStreamDecoder(fastPathMemo(memo)),
  upstreamErrorMessage,

  // the done line always carries the counts
  streamUsageRequested: () => true,
  passthroughBody: (raw, body, upstreamModel) => bodyWithModel(raw, body, upstreamModel),
  usageFromResponse,
  createPassthroughStream: () => new WholeEventsPassthrough(new OllamaPassthroughStream(), ndjsonEventEnds),
};

/** ollama's fast path (fast-path/codec-fast-path.ts): what a same-protocol request's body is read for, the edit made over its bytes, where a response's usage is. */
export const ollamaFastPath: CodecFastPath = {
  requestMembers: ['model', 'stream'],
  passthroughEdit: () => 'model',
  usageField: null,
};
