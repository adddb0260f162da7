// The request settings Chat Completions and Responses share, read into the model and written
// from it: structured output (Chat `response_format`, Responses `text.format`), reasoning
// (Chat `reasoning_effort`, Responses `reasoning`), and prompt-cache breakpoints on content
// parts (`prompt_cache_breakpoint`). docs/compatibility.md has the tables.
import { REASONING_EFFORTS, type ReasoningEffort, type ReasoningSettings, type ResponseFormat } from '../../model/types.js';
import { effortOf, reasoningOff } from '../../model/reasoning.js';
import { expectObject, expectString, isJsonObject, optionalBoolean, optionalString, type JsonObject } from '../framing/json-field.js';
import { invalidRequest } from '../invalid-request.js';
import { fitsStrictMode } from './strict-schema.js';

/** The name OpenAI requires on a json_schema format, when the caller's protocol gave none. */
const DEFAULT_SCHEMA_NAME = 'response';

// ---------------------------------------------------------------- structured output

/** Chat `response_format`: `{type: text | json_object | json_schema, json_schema: {name, schema, strict, description}}`. */
export function decodeChatResponseFormat(raw: unknown): ResponseFormat | undefined {
  if (raw === undefined || raw === null) return undefined;
  const f = expectObject(raw, 'response_format');
  if (f.type === 'json_schema') return schemaFormat(expectObject(f.json_schema, 'response_format.json_schema'), 'response_format.json_schema');
  return formatOfType(f.type, 'response_format');
}

/** Responses `text.format`: `{type: text | json_object | json_schema, name, schema, strict, description}`. */
export function decodeResponsesTextFormat(text: unknown): ResponseFormat | undefined {
  if (text === undefined || text === null) return undefined;
  const t = expectObject(text, 'text');
  if (t.format === undefined || t.format === null) return undefined;
  const f = expectObject(t.format, 'text.format');
  if (f.type === 'json_schema') return schemaFormat(f, 'text.format');
  return formatOfType(f.type, 'text.format');
}

function formatOfType(type: unknown, path: string): ResponseFormat | undefined {
  if (type === 'text') return undefined;
  if (type === 'json_object') return { type: 'json' };
  throw invalidRequest(`${path}.type must be one of text, json_object, json_schema`);
}

function schemaFormat(s: JsonObject, path: string): ResponseFormat {
  const format: ResponseFormat = {
    type: 'json_schema',
    // A json_schema format without a schema constrains the answer to JSON only.
    schema: s.schema === undefined || s.schema === null ? { type: 'object' } : expectObject(s.schema, `${path}.schema`),
  };
  const name = optionalString(s, 'name', path);
  if (name !== undefined) format.name = name;
  const description = optionalString(s, 'description', path);
  if (description !== undefined) format.description = description;
  const strict = optionalBoolean(s, 'strict', path);
  if (strict !== undefined) format.strict = strict;
  return format;
}

/** The json_schema body both APIs write (Chat nests it in `json_schema`, Responses inlines it). */
function schemaBody(f: Extract<ResponseFormat, { type: 'json_schema' }>): JsonObject {
  const body: JsonObject = { name: f.name ?? DEFAULT_SCHEMA_NAME };
  if (f.description !== undefined) body.description = f.description;
  body.schema = f.schema;
  body.strict = f.strict ?? fitsStrictMode(f.schema);
  return body;
}

export function encodeChatResponseFormat(f: ResponseFormat): JsonObject {
  return f.type === 'json' ? { type: 'json_object' } : { type: 'json_schema', json_schema: schemaBody(f) };
}

export function encodeResponsesTextFormat(f: ResponseFormat): JsonObject {
  return f.type === 'json' ? { type: 'json_object' } : { type: 'json_schema', ...schemaBody(f) };
}

// ---------------------------------------------------------------- reasoning

export function decodeEffort(raw: unknown, path: string): ReasoningEffort | undefined {
  if (raw === undefined || raw === null) return undefined;
  const effort = expectString(raw, path);
  if (!(REASONING_EFFORTS as readonly string[]).includes(effort)) throw invalidRequest(`${path} must be one of ${REASONING_EFFORTS.join(', ')}`);
  return effort as ReasoningEffort;
}

const SUMMARIES = ['auto', 'concise', 'detailed'] as const;

/** Responses `reasoning: {effort, summary}` (`generate_summary` is the deprecated spelling of summary). */
export function decodeResponsesReasoning(raw: unknown): ReasoningSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  const r = expectObject(raw, 'reasoning');
  const out: ReasoningSettings = {};
  const effort = decodeEffort(r.effort, 'reasoning.effort');
  if (effort !== undefined) out.effort = effort;
  const summary = r.summary ?? r.generate_summary;
  if (summary !== undefined && summary !== null) {
    if (!(SUMMARIES as readonly unknown[]).includes(summary)) throw invalidRequest(`reasoning.summary must be one of ${SUMMARIES.join(', ')}`);
    out.summary = summary as ReasoningSettings['summary'];
  }
  return out;
}

/** Chat `reasoning_effort`: the caller's level, its budget's row of the table, or the default level. */
export function chatReasoningEffort(r: ReasoningSettings): ReasoningEffort {
  return reasoningOff(r) ? 'none' : effortOf(r);
}

export function encodeResponsesReasoning(r: ReasoningSettings): JsonObject {
  const out: JsonObject = { effort: chatReasoningEffort(r) };
  if (r.summary !== undefined && r.summary !== 'none' && !reasoningOff(r)) out.summary = r.summary;
  return out;
}

// ---------------------------------------------------------------- prompt-cache breakpoints

/** Whether a content part carries `prompt_cache_breakpoint` (its TTL is the request's, 30m: not a marker's). */
export function hasCacheBreakpoint(part: JsonObject): boolean {
  return isJsonObject(part.prompt_cache_breakpoint);
}
