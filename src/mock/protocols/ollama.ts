// Ollama native chat, as a local ollama answers POST /api/chat (NDJSON stream by default).
import { MOCK_CREATED_AT_MS } from '../content.js';
import { arrayAt, firstWrappedToolName, lastOf, lastRoleText, stringAt, type JsonObject } from './json-read.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, StreamParts } from './types.js';
import { MOCK_REASONING_PIECES, MOCK_REASONING_TEXT } from '../reasoning/content.js';

const CREATED_AT = new Date(MOCK_CREATED_AT_MS).toISOString();

function readFacts(body: JsonObject): RequestFacts | string {
  const model = stringAt(body.model);
  if (model === null || model === '') return 'model is required';
  const messages = arrayAt(body.messages);
  if (messages === null) return 'messages must be an array';
  const last = lastOf(messages);
  return {
    model,
    stream: body.stream !== false, // ollama streams unless told not to
    includeUsage: false,
    firstToolName: firstWrappedToolName(arrayAt(body.tools), 'function'),
    lastIsToolResult: last !== null && last.role === 'tool',
  };
}

function lastUserText(body: JsonObject): string {
  return lastRoleText(
    arrayAt(body.messages),
    (m) => m.role === 'user',
    (m) => stringAt(m.content) ?? '',
  );
}

function message(a: MockAnswer, content: string, withTool: boolean): JsonObject {
  const m: JsonObject = { role: 'assistant', content };
  if (withTool && a.toolName !== null) m.tool_calls = [{ function: { name: a.toolName, arguments: JSON.parse(a.pieces.join('')) as unknown } }];
  return m;
}

/** The final fields. Ollama has no cache field: prompt_eval_count is the evaluated (uncached) input. */
function doneLine(a: MockAnswer, m: JsonObject): string {
  return JSON.stringify({
    model: a.model,
    created_at: CREATED_AT,
    message: m,
    done_reason: 'stop', // ollama says stop after a tool call as well
    done: true,
    total_duration: 1_000_000,
    load_duration: 1_000,
    prompt_eval_count: a.usage.input + a.usage.cacheCreation,
    prompt_eval_duration: 100_000,
    eval_count: a.usage.output,
    eval_duration: 800_000,
  });
}

function renderJson(a: MockAnswer): string {
  const m = message(a, a.toolName === null ? a.pieces.join('') : '', true);
  if (a.reasoning === true) m.thinking = MOCK_REASONING_TEXT; // a thinking model (think: true)
  return doneLine(a, m);
}

function line(a: MockAnswer, m: JsonObject): string {
  return JSON.stringify({ model: a.model, created_at: CREATED_AT, message: m, done: false }) + '\n';
}

function renderStream(a: MockAnswer): StreamParts {
  // Ollama delivers a tool call whole, in one line.
  const pieces = a.toolName === null ? a.pieces.map((text) => line(a, message(a, text, false))) : [line(a, message(a, '', true))];
  const head = a.reasoning === true ? MOCK_REASONING_PIECES.map((thinking) => line(a, { ...message(a, '', false), thinking })).join('') : '';
  return { head, pieces, tail: doneLine(a, message(a, '', false)) + '\n' };
}

function renderError(_status: number, message: string): RenderedError {
  return { body: JSON.stringify({ error: message }), headers: [] };
}

export const ollamaProtocol: MockProtocol = {
  name: 'ollama',
  jsonContentType: 'application/json; charset=utf-8',
  streamContentType: 'application/x-ndjson',
  extraHeaders: [],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError,
};
