// The JSON the mock answers with when the request asks for structure: a structured-output
// answer is the minimal instance of the requested schema (schema-instance.ts), and a tool
// call's arguments are the usual {"location":"Paris"} when the tool's input schema takes them,
// else the minimal instance of that schema. README.md, "The answer".
import { MOCK_TOOL_ARGUMENTS } from './content.js';
import type { AnswerShape } from './protocols/answer-shape.js';
import type { JsonObject } from './protocols/json-read.js';
import { schemaInstance } from './schema-instance.js';

/** The text of a structured-output answer, or null when plain text was asked for. */
export function structuredAnswerText(shape: AnswerShape | undefined): string | null {
  const schema = shape?.outputSchema ?? null;
  return schema === null ? null : JSON.stringify(schemaInstance(schema));
}

/** The arguments of a call of `toolName`, as JSON text. */
export function toolArgumentsText(shape: AnswerShape | undefined, toolName: string): string {
  const schema = shape?.toolSchemas.get(toolName);
  return schema === undefined || takesDefaultArguments(schema) ? MOCK_TOOL_ARGUMENTS : JSON.stringify(schemaInstance(schema));
}

/**
 * Whether {"location": "Paris"} fits an input schema: it names no required property but
 * `location`, declares `location` as a string (or does not close the object), and is an object.
 */
function takesDefaultArguments(schema: JsonObject): boolean {
  const type = schema.type;
  if (type !== undefined && type !== 'object' && type !== 'OBJECT') return false;
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as JsonObject) : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (required.some((r) => r !== 'location')) return false;
  const location = properties.location as JsonObject | undefined;
  if (location === undefined) return schema.additionalProperties !== false;
  return location.type === undefined || location.type === 'string' || location.type === 'STRING';
}

/** `text` cut into at most `chunks` non-empty pieces, for streaming. */
export function textPieces(text: string, chunks: number): string[] {
  const count = Math.max(1, Math.min(chunks, text.length));
  const pieces = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    pieces[i] = text.slice(Math.floor((i * text.length) / count), Math.floor(((i + 1) * text.length) / count));
  }
  return pieces;
}
