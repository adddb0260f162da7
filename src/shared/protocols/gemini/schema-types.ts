// Gemini's OpenAPI-style Schema (function `parameters`, `responseSchema`) spells types in
// capitals (`OBJECT`, what @google/genai's Type enum sends) and marks nulls with `nullable`;
// JSON Schema, which every other protocol takes, wants `object` and a "null" type.
import { isJsonObject, type JsonObject } from '../framing/json-field.js';

const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** Keywords of Gemini's Schema that constrain nothing in JSON Schema terms: ordering and examples. */
const NON_CONSTRAINING = new Set(['propertyOrdering', 'property_ordering', 'example']);

/**
 * Gemini's OpenAPI-subset Schema (`responseSchema`, function `parameters`) as JSON Schema, the
 * dialect the model carries: type names lowered, `nullable: true` as a `"null"` type (or an
 * anyOf member), `format: "enum"` (Gemini's mark of a string enum) dropped with the ordering
 * and example hints, which constrain nothing. Every other keyword is JSON Schema's already.
 */
export function openApiToJsonSchema(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  let nullable = false;
  for (const [k, v] of Object.entries(schema)) {
    if (NON_CONSTRAINING.has(k)) continue;
    if (k === 'nullable') nullable = v === true;
    else if (k === 'type' && typeof v === 'string' && GEMINI_TYPES.has(v)) out[k] = v.toLowerCase();
    else if (k === 'format' && v === 'enum') continue;
    else if (k === 'properties' && isJsonObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, isJsonObject(s) ? openApiToJsonSchema(s) : s]));
    } else if (Array.isArray(v)) out[k] = v.map((x) => (isJsonObject(x) ? openApiToJsonSchema(x) : x));
    else out[k] = isJsonObject(v) ? openApiToJsonSchema(v) : v;
  }
  if (!nullable) return out;
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  return out;
}
