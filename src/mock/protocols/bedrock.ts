// AWS Bedrock Converse and ConverseStream, as bedrock-runtime answers
// POST /model/{modelId}/converse and /converse-stream. The stream is the binary AWS event
// stream; frames are encoded with @smithy/eventstream-codec so their CRCs are valid.
import { Buffer } from 'node:buffer';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { MOCK_TOOL_USE_ID_BEDROCK } from '../content.js';
import { arrayAt, firstWrappedToolName, hasPartWith, lastOf, lastUserMessageText, objectAt, type JsonObject } from './json-read.js';
import { nameOfStatus, type StatusNames } from './error-names.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, RouteFacts, StreamParts } from './types.js';
import { MOCK_REASONING_PIECES, MOCK_REASONING_TEXT, mockSignature } from '../reasoning/content.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
/** Reported model latency; fixed because answers are cached (the real delay is the settings'). */
const METRICS = { latencyMs: 1 };

function readFacts(body: JsonObject, route: RouteFacts): RequestFacts | string {
  if (route.model === null || route.model === '') return 'modelId is missing from the path';
  const messages = arrayAt(body.messages);
  if (messages === null) return 'messages is required';
  const last = lastOf(messages);
  return {
    model: route.model,
    stream: route.stream === true,
    includeUsage: false,
    firstToolName: firstWrappedToolName(arrayAt(objectAt(body.toolConfig)?.tools), 'toolSpec'),
    lastIsToolResult: last !== null && hasPartWith(last.content, (p) => p.toolResult !== undefined),
  };
}

function lastUserText(body: JsonObject): string {
  return lastUserMessageText(body.messages, null);
}

/** Bedrock inputTokens EXCLUDE cached tokens; the cache fields appear when caching was used. */
function usage(a: MockAnswer): JsonObject {
  const u: JsonObject = {
    inputTokens: a.usage.input,
    outputTokens: a.usage.output,
    totalTokens: a.usage.input + a.usage.cacheRead + a.usage.cacheCreation + a.usage.output,
  };
  if (a.usage.cacheRead > 0 || a.usage.cacheCreation > 0) {
    u.cacheReadInputTokens = a.usage.cacheRead;
    u.cacheWriteInputTokens = a.usage.cacheCreation;
  }
  return u;
}

function stopReason(a: MockAnswer): string {
  return a.toolName === null ? 'end_turn' : 'tool_use';
}

function renderJson(a: MockAnswer): string {
  const content: JsonObject[] =
    a.toolName === null
      ? [{ text: a.pieces.join('') }]
      : [{ toolUse: { toolUseId: MOCK_TOOL_USE_ID_BEDROCK, name: a.toolName, input: JSON.parse(a.pieces.join('')) as unknown } }];
  // Claude on Bedrock: its thinking first, signed over its text.
  if (a.reasoning === true)
    content.unshift({ reasoningContent: { reasoningText: { text: MOCK_REASONING_TEXT, signature: mockSignature('bedrock', MOCK_REASONING_TEXT) } } });
  return JSON.stringify({
    output: { message: { role: 'assistant', content } },
    stopReason: stopReason(a),
    usage: usage(a),
    metrics: METRICS,
  });
}

function eventFrame(eventType: string, payload: JsonObject): Uint8Array {
  const headers: MessageHeaders = {
    ':event-type': { type: 'string', value: eventType },
    ':content-type': { type: 'string', value: 'application/json' },
    ':message-type': { type: 'string', value: 'event' },
  };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify(payload)) });
}

function concat(frames: Uint8Array[]): Uint8Array {
  return Buffer.concat(frames);
}

function renderStream(a: MockAnswer): StreamParts {
  const head = [eventFrame('messageStart', { role: 'assistant' })];
  // Reasoning is block 0 when there is any: its text deltas, then its signature.
  const index = a.reasoning === true ? 1 : 0;
  if (index === 1) {
    for (const text of MOCK_REASONING_PIECES) head.push(eventFrame('contentBlockDelta', { delta: { reasoningContent: { text } }, contentBlockIndex: 0 }));
    head.push(
      eventFrame('contentBlockDelta', { delta: { reasoningContent: { signature: mockSignature('bedrock', MOCK_REASONING_TEXT) } }, contentBlockIndex: 0 }),
    );
    head.push(eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
  }
  if (a.toolName !== null) {
    head.push(
      eventFrame('contentBlockStart', {
        start: { toolUse: { toolUseId: MOCK_TOOL_USE_ID_BEDROCK, name: a.toolName } },
        contentBlockIndex: index,
      }),
    );
  }
  const pieces = a.pieces.map((piece) =>
    eventFrame('contentBlockDelta', {
      delta: a.toolName === null ? { text: piece } : { toolUse: { input: piece } },
      contentBlockIndex: index,
    }),
  );
  const tail = [
    eventFrame('contentBlockStop', { contentBlockIndex: index }),
    eventFrame('messageStop', { stopReason: stopReason(a) }),
    eventFrame('metadata', { usage: usage(a), metrics: METRICS }),
  ];
  return { head: concat(head), pieces, tail: concat(tail) };
}

const ERROR_TYPES: StatusNames<string> = {
  byStatus: {
    400: 'ValidationException',
    401: 'UnrecognizedClientException',
    403: 'AccessDeniedException',
    404: 'ResourceNotFoundException',
    408: 'ModelTimeoutException',
    424: 'ModelErrorException',
    429: 'ThrottlingException',
    503: 'ServiceUnavailableException',
  },
  otherServerError: 'InternalServerException',
  otherClientError: 'ValidationException',
};

function renderError(status: number, message: string): RenderedError {
  return {
    body: JSON.stringify({ message }),
    headers: [['x-amzn-ErrorType', `${nameOfStatus(ERROR_TYPES, status)}:http://internal.amazon.com/coral/com.amazon.bedrock/`]],
  };
}

export const bedrockProtocol: MockProtocol = {
  name: 'bedrock',
  jsonContentType: 'application/json',
  streamContentType: 'application/vnd.amazon.eventstream',
  extraHeaders: [['x-amzn-RequestId', '00000000-0000-4000-8000-000000000000']],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError,
};
