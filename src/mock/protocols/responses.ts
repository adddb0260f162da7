// OpenAI Responses, as api.openai.com answers POST /v1/responses.
import { MOCK_CREATED_AT_SEC, MOCK_TOOL_CALL_ID } from '../content.js';
import { arrayAt, lastOf, lastUserMessageText, objectAt, stringAt, type JsonObject } from './json-read.js';
import { renderOpenAiError } from './openai.js';
import { sseEvent } from './sse-frame.js';
import type { MockAnswer, MockProtocol, RequestFacts, StreamParts } from './types.js';
import { MOCK_REASONING_ITEM_ID, MOCK_REASONING_PIECES, MOCK_REASONING_TEXT, mockSignature } from '../reasoning/content.js';

const RESPONSE_ID = 'resp_mock';
const MESSAGE_ID = 'msg_mock_1';
const FUNCTION_CALL_ID = 'fc_mock_1';

function readFacts(body: JsonObject): RequestFacts | string {
  const model = stringAt(body.model);
  if (model === null || model === '') return 'model is required';
  const input = body.input;
  if (typeof input !== 'string' && !Array.isArray(input)) return 'input must be a string or an array';
  const last = typeof input === 'string' ? null : lastOf(input);
  return {
    model,
    stream: body.stream === true,
    includeUsage: false,
    firstToolName: firstFunctionToolName(arrayAt(body.tools)),
    lastIsToolResult: last !== null && last.type === 'function_call_output',
  };
}

function firstFunctionToolName(tools: readonly unknown[] | null): string | null {
  if (tools === null) return null;
  for (const tool of tools) {
    const obj = objectAt(tool);
    const name = stringAt(obj?.name);
    if (obj?.type === 'function' && name !== null) return name;
  }
  return null;
}

function lastUserText(body: JsonObject): string {
  if (typeof body.input === 'string') return body.input;
  return lastUserMessageText(body.input, 'input_text');
}

function usage(a: MockAnswer): JsonObject {
  // Responses input counts include cached tokens (and cache writes, which have no field here).
  const input = a.usage.input + a.usage.cacheRead + a.usage.cacheCreation;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: a.usage.cacheRead },
    output_tokens: a.usage.output,
    output_tokens_details: { reasoning_tokens: a.usage.reasoning },
    total_tokens: input + a.usage.output,
  };
}

function outputItem(a: MockAnswer, done: boolean): JsonObject {
  const status = done ? 'completed' : 'in_progress';
  const whole = done ? a.pieces.join('') : '';
  if (a.toolName !== null) {
    return { id: FUNCTION_CALL_ID, type: 'function_call', status, arguments: whole, call_id: MOCK_TOOL_CALL_ID, name: a.toolName };
  }
  return {
    id: MESSAGE_ID,
    type: 'message',
    status,
    content: done ? [textPart(whole)] : [],
    role: 'assistant',
  };
}

/** The mock's reasoning item: its summary, and its encrypted_content (signed over its id). */
function reasoningItem(done: boolean): JsonObject {
  return {
    id: MOCK_REASONING_ITEM_ID,
    type: 'reasoning',
    summary: done ? [{ type: 'summary_text', text: MOCK_REASONING_TEXT }] : [],
    encrypted_content: done ? mockSignature('responses', MOCK_REASONING_ITEM_ID) : null,
  };
}

/** The answer's output: the reasoning item first when it reasons. */
function output(a: MockAnswer): JsonObject[] {
  return a.reasoning === true ? [reasoningItem(true), outputItem(a, true)] : [outputItem(a, true)];
}

function textPart(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

function responseObject(a: MockAnswer, done: boolean): JsonObject {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: MOCK_CREATED_AT_SEC,
    status: done ? 'completed' : 'in_progress',
    background: false,
    completed_at: done ? MOCK_CREATED_AT_SEC : null,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: a.model,
    output: done ? output(a) : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: done ? usage(a) : null,
    user: null,
    metadata: {},
  };
}

function renderJson(a: MockAnswer): string {
  return JSON.stringify(responseObject(a, true));
}

/** Writes events with consecutive sequence numbers, as the API numbers them from 0. */
class EventWriter {
  private sequence = 0;
  event(type: string, fields: JsonObject): string {
    return sseEvent(type, { type, sequence_number: this.sequence++, ...fields });
  }
}

function renderStream(a: MockAnswer): StreamParts {
  const w = new EventWriter();
  const whole = a.pieces.join('');
  let head = w.event('response.created', { response: responseObject(a, false) });
  head += w.event('response.in_progress', { response: responseObject(a, false) });
  if (a.reasoning === true) head += reasoningEvents(w);
  const index = a.reasoning === true ? 1 : 0;
  head += w.event('response.output_item.added', { output_index: index, item: outputItem(a, false) });
  let pieces: string[];
  let tail: string;
  if (a.toolName === null) {
    const at = { item_id: MESSAGE_ID, output_index: index, content_index: 0 };
    head += w.event('response.content_part.added', { ...at, part: textPart('') });
    pieces = a.pieces.map((delta) => w.event('response.output_text.delta', { ...at, delta, logprobs: [] }));
    tail = w.event('response.output_text.done', { ...at, text: whole, logprobs: [] });
    tail += w.event('response.content_part.done', { ...at, part: textPart(whole) });
  } else {
    const at = { item_id: FUNCTION_CALL_ID, output_index: index };
    pieces = a.pieces.map((delta) => w.event('response.function_call_arguments.delta', { ...at, delta }));
    tail = w.event('response.function_call_arguments.done', { ...at, name: a.toolName, arguments: whole });
  }
  tail += w.event('response.output_item.done', { output_index: index, item: outputItem(a, true) });
  tail += w.event('response.completed', { response: responseObject(a, true) });
  return { head, pieces, tail };
}

/** The reasoning item's events, output_index 0: its summary streamed, its encrypted_content in output_item.done. */
function reasoningEvents(w: EventWriter): string {
  const at = { item_id: MOCK_REASONING_ITEM_ID, output_index: 0, summary_index: 0 };
  let out = w.event('response.output_item.added', { output_index: 0, item: reasoningItem(false) });
  out += w.event('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
  for (const delta of MOCK_REASONING_PIECES) out += w.event('response.reasoning_summary_text.delta', { ...at, delta });
  out += w.event('response.reasoning_summary_text.done', { ...at, text: MOCK_REASONING_TEXT });
  out += w.event('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text: MOCK_REASONING_TEXT } });
  return out + w.event('response.output_item.done', { output_index: 0, item: reasoningItem(true) });
}

export const responsesProtocol: MockProtocol = {
  name: 'responses',
  jsonContentType: 'application/json',
  streamContentType: 'text/event-stream; charset=utf-8',
  extraHeaders: [['x-request-id', 'req_mock']],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError: renderOpenAiError,
};
