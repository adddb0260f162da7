// OpenAI Chat Completions, as api.openai.com answers POST /v1/chat/completions.
import { MOCK_CREATED_AT_SEC, MOCK_TOOL_CALL_ID } from '../content.js';
import { arrayAt, firstWrappedToolName, lastOf, lastUserMessageText, objectAt, stringAt, type JsonObject } from './json-read.js';
import { nameOfStatus, type StatusNames } from './error-names.js';
import { sseData } from './sse-frame.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, StreamParts } from './types.js';
import { MOCK_REASONING_PIECES, MOCK_REASONING_TEXT } from '../reasoning/content.js';

const ID = 'chatcmpl-mock';
const FINGERPRINT = 'fp_mock';

function readFacts(body: JsonObject): RequestFacts | string {
  const model = stringAt(body.model);
  if (model === null || model === '') return 'model is required';
  const messages = arrayAt(body.messages);
  if (messages === null) return 'messages must be an array';
  const stream = body.stream === true;
  const last = lastOf(messages);
  return {
    model,
    stream,
    includeUsage: stream && objectAt(body.stream_options)?.include_usage === true,
    firstToolName: firstWrappedToolName(arrayAt(body.tools), 'function'),
    lastIsToolResult: last !== null && (last.role === 'tool' || last.role === 'function'),
  };
}

function lastUserText(body: JsonObject): string {
  return lastUserMessageText(body.messages, 'text');
}

function usage(a: MockAnswer): JsonObject {
  // OpenAI prompt counts include cached tokens (and cache writes, which have no field here).
  const prompt = a.usage.input + a.usage.cacheRead + a.usage.cacheCreation;
  return {
    prompt_tokens: prompt,
    completion_tokens: a.usage.output,
    total_tokens: prompt + a.usage.output,
    prompt_tokens_details: { cached_tokens: a.usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: a.usage.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function renderJson(a: MockAnswer): string {
  const text = a.toolName === null ? a.pieces.join('') : null;
  const message: JsonObject = { role: 'assistant', content: text, refusal: null, annotations: [] };
  // A thinking model on an OpenAI-compatible host (DeepSeek, vLLM) says its reasoning here.
  if (a.reasoning === true) message.reasoning_content = MOCK_REASONING_TEXT;
  if (a.toolName !== null) {
    message.tool_calls = [{ id: MOCK_TOOL_CALL_ID, type: 'function', function: { name: a.toolName, arguments: a.pieces.join('') } }];
  }
  return JSON.stringify({
    id: ID,
    object: 'chat.completion',
    created: MOCK_CREATED_AT_SEC,
    model: a.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: a.toolName === null ? 'stop' : 'tool_calls' }],
    usage: usage(a),
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  });
}

/** A chat.completion.chunk with these choices (none on the usage-only chunk). */
function chunkPayload(a: MockAnswer, choices: JsonObject[]): JsonObject {
  return {
    id: ID,
    object: 'chat.completion.chunk',
    created: MOCK_CREATED_AT_SEC,
    model: a.model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
    choices,
  };
}

function chunk(a: MockAnswer, delta: JsonObject, finishReason: string | null, withUsage = false): string {
  const payload = chunkPayload(a, [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  // With include_usage every chunk carries `usage: null` until the final usage-only chunk.
  if (a.includeUsage) payload.usage = withUsage ? usage(a) : null;
  return sseData(payload);
}

function renderStream(a: MockAnswer): StreamParts {
  const tool = a.toolName;
  const head =
    tool === null
      ? chunk(a, { role: 'assistant', content: '', refusal: null }, null)
      : chunk(
          a,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: MOCK_TOOL_CALL_ID, type: 'function', function: { name: tool, arguments: '' } }],
            refusal: null,
          },
          null,
        );
  const pieces = a.pieces.map((piece) =>
    tool === null ? chunk(a, { content: piece }, null) : chunk(a, { tool_calls: [{ index: 0, function: { arguments: piece } }] }, null),
  );
  // Reasoning streams first, in reasoning_content deltas, as DeepSeek sends it.
  const reasoning = a.reasoning === true ? MOCK_REASONING_PIECES.map((r) => chunk(a, { content: null, reasoning_content: r }, null)).join('') : '';
  const first = tool === null ? head : chunk(a, { role: 'assistant', content: null, refusal: null }, null);
  const opened = a.reasoning === true ? first + reasoning + (tool === null ? '' : head) : head;
  // usage_on_last: usage beside finish_reason, as some OpenAI-compatible servers send it.
  const usageOnFinish = a.includeUsage && a.usageOnLast;
  let tail = chunk(a, {}, tool === null ? 'stop' : 'tool_calls', usageOnFinish);
  if (a.includeUsage && !usageOnFinish) {
    tail += sseData({ ...chunkPayload(a, []), usage: usage(a) });
  }
  tail += 'data: [DONE]\n\n';
  return { head: opened, pieces, tail };
}

/** OpenAI's error `type` and `code` for a status (also used by the Responses API). */
const ERROR_TYPES: StatusNames<{ type: string; code: string | null }> = {
  byStatus: {
    400: { type: 'invalid_request_error', code: null },
    401: { type: 'invalid_request_error', code: 'invalid_api_key' },
    403: { type: 'permission_error', code: null },
    404: { type: 'invalid_request_error', code: 'model_not_found' },
    429: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  },
  otherServerError: { type: 'server_error', code: null },
  otherClientError: { type: 'invalid_request_error', code: null },
};

export function renderOpenAiError(status: number, message: string): RenderedError {
  const { type, code } = nameOfStatus(ERROR_TYPES, status);
  return { body: JSON.stringify({ error: { message, type, param: null, code } }), headers: [] };
}

export const openaiProtocol: MockProtocol = {
  name: 'openai',
  jsonContentType: 'application/json',
  streamContentType: 'text/event-stream; charset=utf-8',
  extraHeaders: [['x-request-id', 'req_mock']],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError: renderOpenAiError,
};
