// Gemini's OpenAPI-style function `parameters` Schema spells types in capitals (`OBJECT`,
// what @google/genai's Type enum sends); JSON Schema, which every other protocol takes, wants
// `object`. Only the type names change.
import { isJsonObject, type JsonObject } from '../framing/json-field.js';

const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

export function lowerSchemaTypes(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && typeof v === 'string' && GEMINI_TYPES.has(v)) out[k] = v.toLowerCase();
    else if (Array.isArray(v)) out[k] = v.map((x) => (isJsonObject(x) ? lowerSchemaTypes(x) : x));
    else out[k] = isJsonObject(v) ? lowerSchemaTypes(v) : v;
  }
  return out;
}
