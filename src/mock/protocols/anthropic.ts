// Anthropic Messages, as api.anthropic.com answers POST /v1/messages.
import { MOCK_TOOL_USE_ID_ANTHROPIC } from '../content.js';
import { arrayAt, hasPartWith, lastOf, lastUserMessageText, objectAt, stringAt, type JsonObject } from './json-read.js';
import { nameOfStatus, type StatusNames } from './error-names.js';
import { sseEvent } from './sse-frame.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, StreamParts } from './types.js';
import { MOCK_REASONING_PIECES, MOCK_REASONING_TEXT, mockSignature } from '../reasoning/content.js';

const MESSAGE_ID = 'msg_mock';

function readFacts(body: JsonObject): RequestFacts | string {
  const model = stringAt(body.model);
  if (model === null || model === '') return 'model: Field required';
  const messages = arrayAt(body.messages);
  if (messages === null) return 'messages: Field required';
  const last = lastOf(messages);
  return {
    model,
    stream: body.stream === true,
    includeUsage: false,
    firstToolName: firstCustomToolName(arrayAt(body.tools)),
    lastIsToolResult: last !== null && hasPartWith(last.content, (p) => p.type === 'tool_result'),
  };
}

/** The first client tool (server tools such as web_search have a versioned type and no schema). */
function firstCustomToolName(tools: readonly unknown[] | null): string | null {
  if (tools === null) return null;
  for (const tool of tools) {
    const obj = objectAt(tool);
    const name = stringAt(obj?.name);
    if (obj !== null && name !== null && (obj.type === undefined || obj.type === 'custom' || obj.input_schema !== undefined)) return name;
  }
  return null;
}

function lastUserText(body: JsonObject): string {
  return lastUserMessageText(body.messages, 'text');
}

/** Anthropic input_tokens EXCLUDE cached tokens; the cache read goes in its own field. */
function usage(a: MockAnswer, outputTokens: number): JsonObject {
  return {
    input_tokens: a.usage.input,
    cache_creation_input_tokens: a.usage.cacheCreation,
    cache_read_input_tokens: a.usage.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: a.usage.cacheCreation, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function stopReason(a: MockAnswer): string {
  return a.toolName === null ? 'end_turn' : 'tool_use';
}

/** The mock's thinking block, signed over its text. */
const THINKING = { type: 'thinking', thinking: MOCK_REASONING_TEXT, signature: mockSignature('anthropic', MOCK_REASONING_TEXT) };

function renderJson(a: MockAnswer): string {
  const content: JsonObject[] =
    a.toolName === null
      ? [{ type: 'text', text: a.pieces.join('') }]
      : [{ type: 'tool_use', id: MOCK_TOOL_USE_ID_ANTHROPIC, name: a.toolName, input: JSON.parse(a.pieces.join('')) as unknown }];
  if (a.reasoning === true) content.unshift(THINKING);
  return JSON.stringify({
    id: MESSAGE_ID,
    type: 'message',
    role: 'assistant',
    model: a.model,
    content,
    stop_reason: stopReason(a),
    stop_sequence: null,
    usage: usage(a, a.usage.output),
  });
}

function renderStream(a: MockAnswer): StreamParts {
  const tool = a.toolName;
  let head = sseEvent('message_start', {
    type: 'message_start',
    message: {
      id: MESSAGE_ID,
      type: 'message',
      role: 'assistant',
      model: a.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(a, 1),
    },
  });
  // With reasoning, a thinking block comes first: its deltas, then signature_delta, as Claude streams it.
  const index = a.reasoning === true ? 1 : 0;
  if (index === 1) {
    head += sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const thinking of MOCK_REASONING_PIECES) {
      head += sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } });
    }
    head += sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: THINKING.signature } });
    head += sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 });
  }
  const block = tool === null ? { type: 'text', text: '' } : { type: 'tool_use', id: MOCK_TOOL_USE_ID_ANTHROPIC, name: tool, input: {} };
  head += sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block });
  head += sseEvent('ping', { type: 'ping' });
  const pieces = a.pieces.map((piece) =>
    sseEvent('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: tool === null ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece },
    }),
  );
  let tail = sseEvent('content_block_stop', { type: 'content_block_stop', index });
  tail += sseEvent('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason(a), stop_sequence: null },
    // The API reports cumulative usage here: output, and the input side again.
    usage: {
      input_tokens: a.usage.input,
      cache_creation_input_tokens: a.usage.cacheCreation,
      cache_read_input_tokens: a.usage.cacheRead,
      output_tokens: a.usage.output,
    },
  });
  tail += sseEvent('message_stop', { type: 'message_stop' });
  return { head, pieces, tail };
}

const ERROR_TYPES: StatusNames<string> = {
  byStatus: {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  },
  otherServerError: 'api_error',
  otherClientError: 'invalid_request_error',
};

function renderError(status: number, message: string): RenderedError {
  return {
    body: JSON.stringify({ type: 'error', error: { type: nameOfStatus(ERROR_TYPES, status), message }, request_id: 'req_mock' }),
    headers: [],
  };
}

export const anthropicProtocol: MockProtocol = {
  name: 'anthropic',
  jsonContentType: 'application/json',
  streamContentType: 'text/event-stream; charset=utf-8',
  extraHeaders: [['request-id', 'req_mock']],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError,
};
