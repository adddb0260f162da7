// OpenAI Chat Completions, as api.openai.com answers POST /v1/chat/completions.
import { MOCK_CREATED_AT_SEC, MOCK_TOOL_CALL_ID } from '../content.js';
import { arrayAt, contentText, lastOf, lastRoleText, objectAt, stringAt, type JsonObject } from './json-read.js';
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
    firstToolName: firstFunctionName(arrayAt(body.tools)),
    lastIsToolResult: last !== null && (last.role === 'tool' || last.role === 'function'),
  };
}

/** OpenAI chat and Ollama declare tools the same way: `{type:"function", function:{name}}`. */
export function firstFunctionName(tools: readonly unknown[] | null): string | null {
  if (tools === null) return null;
  for (const tool of tools) {
    const name = stringAt(objectAt(objectAt(tool)?.function)?.name);
    if (name !== null) return name;
  }
  return null;
}

function lastUserText(body: JsonObject): string {
  return lastRoleText(
    arrayAt(body.messages),
    (m) => m.role === 'user',
    (m) => contentText(m.content, 'text', 'text'),
  );
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

function chunk(a: MockAnswer, delta: JsonObject, finishReason: string | null, withUsage = false): string {
  const payload: JsonObject = {
    id: ID,
    object: 'chat.completion.chunk',
    created: MOCK_CREATED_AT_SEC,
    model: a.model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
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
    tail += sseData({
      id: ID,
      object: 'chat.completion.chunk',
      created: MOCK_CREATED_AT_SEC,
      model: a.model,
      service_tier: 'default',
      system_fingerprint: FINGERPRINT,
      choices: [],
      usage: usage(a),
    });
  }
  tail += 'data: [DONE]\n\n';
  return { head: opened, pieces, tail };
}

/** OpenAI's error `type` and `code` for a status (also used by the Responses API). */
function openAiErrorType(status: number): { type: string; code: string | null } {
  switch (status) {
    case 400:
      return { type: 'invalid_request_error', code: null };
    case 401:
      return { type: 'invalid_request_error', code: 'invalid_api_key' };
    case 403:
      return { type: 'permission_error', code: null };
    case 404:
      return { type: 'invalid_request_error', code: 'model_not_found' };
    case 429:
      return { type: 'rate_limit_error', code: 'rate_limit_exceeded' };
    default:
      return status >= 500 ? { type: 'server_error', code: null } : { type: 'invalid_request_error', code: null };
  }
}

export function renderOpenAiError(status: number, message: string): RenderedError {
  const { type, code } = openAiErrorType(status);
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
