// Google Gemini generateContent / streamGenerateContent?alt=sse, as
// generativelanguage.googleapis.com answers them (Vertex AI answers the same shapes).
import { nameOfStatus, type StatusNames } from './error-names.js';
import { arrayAt, contentText, hasPartWith, lastOf, lastRoleText, objectAt, stringAt, type JsonObject } from './json-read.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, RouteFacts, StreamParts } from './types.js';
import { geminiSubject, MOCK_REASONING_PIECES, MOCK_REASONING_TEXT, mockSignature } from '../reasoning/content.js';

const RESPONSE_ID = 'mock-response-id';

function readFacts(body: JsonObject, route: RouteFacts): RequestFacts | string {
  if (route.model === null || route.model === '') return 'model name is missing from the path';
  const contents = arrayAt(body.contents);
  if (contents === null) return '* GenerateContentRequest.contents: contents is not specified';
  const last = lastOf(contents);
  return {
    model: route.model,
    stream: route.stream === true,
    includeUsage: false,
    firstToolName: firstDeclarationName(arrayAt(body.tools)),
    lastIsToolResult: last !== null && hasPartWith(last.parts, (p) => p.functionResponse !== undefined),
  };
}

function firstDeclarationName(tools: readonly unknown[] | null): string | null {
  if (tools === null) return null;
  for (const tool of tools) {
    const declarations = arrayAt(objectAt(tool)?.functionDeclarations);
    const name = declarations === null ? null : stringAt(objectAt(declarations[0])?.name);
    if (name !== null) return name;
  }
  return null;
}

function lastUserText(body: JsonObject): string {
  // A content without a role is a user turn.
  return lastRoleText(
    arrayAt(body.contents),
    (c) => c.role === undefined || c.role === 'user',
    (c) => contentText(c.parts, 'text', null),
  );
}

/** Gemini promptTokenCount INCLUDES cached tokens; cachedContentTokenCount appears only when > 0. */
function usageMetadata(a: MockAnswer): JsonObject {
  // Cache writes have no field here: they count as prompt. Thinking tokens are apart from the candidates'.
  const prompt = a.usage.input + a.usage.cacheRead + a.usage.cacheCreation;
  const usage: JsonObject = {
    promptTokenCount: prompt,
    candidatesTokenCount: a.usage.output - a.usage.reasoning,
    totalTokenCount: prompt + a.usage.output,
  };
  if (a.usage.cacheRead > 0) usage.cachedContentTokenCount = a.usage.cacheRead;
  if (a.usage.reasoning > 0) usage.thoughtsTokenCount = a.usage.reasoning;
  usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt }];
  if (a.usage.cacheRead > 0) usage.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: a.usage.cacheRead }];
  return usage;
}

/** What Gemini reports on a chunk before the last: the prompt, and no output yet. */
function runningUsage(a: MockAnswer): JsonObject {
  const prompt = a.usage.input + a.usage.cacheRead + a.usage.cacheCreation;
  const usage: JsonObject = { promptTokenCount: prompt, totalTokenCount: prompt };
  if (a.usage.cacheRead > 0) usage.cachedContentTokenCount = a.usage.cacheRead;
  return usage;
}

function response(a: MockAnswer, parts: unknown[], last: boolean): JsonObject {
  const candidate: JsonObject = { content: { parts, role: 'model' } };
  if (last) candidate.finishReason = 'STOP'; // Gemini ends a function call with STOP too
  candidate.index = 0;
  const out: JsonObject = { candidates: [candidate] };
  if (last) out.usageMetadata = usageMetadata(a);
  else if (a.usageEveryChunk === true) out.usageMetadata = runningUsage(a);
  out.modelVersion = a.model;
  out.responseId = RESPONSE_ID;
  return out;
}

/**
 * With reasoning: a thought summary first, and the thoughtSignature where Gemini 3 puts it, on
 * the function call, or on the answer's text when there is no call.
 */
function answerParts(a: MockAnswer): unknown[] {
  const part: JsonObject =
    a.toolName === null ? { text: a.pieces.join('') } : { functionCall: { name: a.toolName, args: JSON.parse(a.pieces.join('')) as unknown } };
  if (a.reasoning !== true) return [part];
  part.thoughtSignature = mockSignature('gemini', geminiSubject(a.toolName));
  return [{ text: MOCK_REASONING_TEXT, thought: true }, part];
}

function renderJson(a: MockAnswer): string {
  return JSON.stringify(response(a, answerParts(a), true));
}

/** Gemini separates its SSE events with CRLF pairs. */
function frame(payload: JsonObject): string {
  return 'data: ' + JSON.stringify(payload) + '\r\n\r\n';
}

function renderStream(a: MockAnswer): StreamParts {
  // A function call arrives whole in one chunk; text arrives a piece a chunk, the last one
  // carrying finishReason and usageMetadata.
  const pieces =
    a.toolName === null
      ? a.pieces.map((text, i) => frame(response(a, [{ text }], i === a.pieces.length - 1 && a.reasoning !== true)))
      : [frame(response(a, answerParts(a).slice(a.reasoning === true ? 1 : 0), true))];
  if (a.reasoning !== true) return { head: '', pieces, tail: '' };
  // Thought summaries stream first; a text answer's signature comes on a last, empty text part.
  const head = MOCK_REASONING_PIECES.map((text) => frame(response(a, [{ text, thought: true }], false))).join('');
  const tail = a.toolName === null ? frame(response(a, [{ text: '', thoughtSignature: mockSignature('gemini', geminiSubject(null)) }], true)) : '';
  return { head, pieces, tail };
}

const STATUS_NAMES: StatusNames<string> = {
  byStatus: {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ABORTED',
    429: 'RESOURCE_EXHAUSTED',
    499: 'CANCELLED',
    501: 'UNIMPLEMENTED',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
  },
  otherServerError: 'INTERNAL',
  otherClientError: 'FAILED_PRECONDITION',
};

function renderError(status: number, message: string): RenderedError {
  return { body: JSON.stringify({ error: { code: status, message, status: nameOfStatus(STATUS_NAMES, status) } }), headers: [] };
}

export const geminiProtocol: MockProtocol = {
  name: 'gemini',
  jsonContentType: 'application/json; charset=UTF-8',
  streamContentType: 'text/event-stream',
  extraHeaders: [],
  readFacts,
  lastUserText,
  renderJson,
  renderStream,
  renderError,
};
