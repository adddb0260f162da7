// Gemini's field spellings (proto JSON takes camelCase and snake_case alike), plus the
// shared body readers.
import type { JsonObject } from '../framing/json-field.js';

export { optionalStringArray, argumentsObject, splitDataUrl } from '../framing/body-fields.js';

/**
 * Which spelling of a field the body uses: Gemini's REST API takes proto JSON, where both
 * `maxOutputTokens` and `max_output_tokens` are valid, and curl examples use the latter.
 */
export function keyOf(obj: JsonObject, camel: string, snake: string): string {
  return obj[camel] === undefined && obj[snake] !== undefined ? snake : camel;
}

/** A field by either spelling. */
export function field(obj: JsonObject, camel: string, snake: string): unknown {
  const v = obj[camel];
  return v === undefined ? obj[snake] : v;
}
