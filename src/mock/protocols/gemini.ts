// Google Gemini generateContent / streamGenerateContent?alt=sse, as
// generativelanguage.googleapis.com answers them (Vertex AI answers the same shapes).
import { arrayAt, contentText, hasPartWith, lastOf, lastRoleText, objectAt, stringAt, type JsonObject } from './json-read.js';
import type { MockAnswer, MockProtocol, RenderedError, RequestFacts, RouteFacts, StreamParts } from './types.js';

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
  return lastRoleText(arrayAt(body.contents), (c) => c.role === undefined || c.role === 'user', (c) => contentText(c.parts, 'text', null));
}

/** Gemini promptTokenCount INCLUDES cached tokens; cachedContentTokenCount appears only when > 0. */
function usageMetadata(a: MockAnswer): JsonObject {
  const prompt = a.usage.input + a.usage.cacheRead;
  const usage: JsonObject = {
    promptTokenCount: prompt,
    candidatesTokenCount: a.usage.output,
    totalTokenCount: prompt + a.usage.output,
  };
  if (a.usage.cacheRead > 0) usage.cachedContentTokenCount = a.usage.cacheRead;
  usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt }];
  if (a.usage.cacheRead > 0) usage.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: a.usage.cacheRead }];
  return usage;
}

function response(a: MockAnswer, parts: unknown[], last: boolean): JsonObject {
  const candidate: JsonObject = { content: { parts, role: 'model' } };
  if (last) candidate.finishReason = 'STOP'; // Gemini ends a function call with STOP too
  candidate.index = 0;
  const out: JsonObject = { candidates: [candidate] };
  if (last) out.usageMetadata = usageMetadata(a);
  out.modelVersion = a.model;
  out.responseId = RESPONSE_ID;
  return out;
}

function answerParts(a: MockAnswer): unknown[] {
  return a.toolName === null ? [{ text: a.pieces.join('') }] : [{ functionCall: { name: a.toolName, args: JSON.parse(a.pieces.join('')) as unknown } }];
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
      ? a.pieces.map((text, i) => frame(response(a, [{ text }], i === a.pieces.length - 1)))
      : [frame(response(a, answerParts(a), true))];
  return { head: '', pieces, tail: '' };
}

function statusName(status: number): string {
  switch (status) {
    case 400: return 'INVALID_ARGUMENT';
    case 401: return 'UNAUTHENTICATED';
    case 403: return 'PERMISSION_DENIED';
    case 404: return 'NOT_FOUND';
    case 409: return 'ABORTED';
    case 429: return 'RESOURCE_EXHAUSTED';
    case 499: return 'CANCELLED';
    case 501: return 'UNIMPLEMENTED';
    case 503: return 'UNAVAILABLE';
    case 504: return 'DEADLINE_EXCEEDED';
    default: return status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION';
  }
}

function renderError(status: number, message: string): RenderedError {
  return { body: JSON.stringify({ error: { code: status, message, status: statusName(status) } }), headers: [] };
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
