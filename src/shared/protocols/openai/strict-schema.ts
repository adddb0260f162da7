// Whether a JSON Schema fits OpenAI's strict structured outputs: every object closed
// (`additionalProperties: false`) with every property required. A caller whose protocol has no
// strict flag (Anthropic, Gemini, Bedrock, Ollama: their schema modes always constrain) gets
// `strict: true` towards an OpenAI lane when its schema fits, else `strict: false` (OpenAI
// would refuse a strict schema that does not fit), never a refusal.
import { isJsonObject, type JsonObject } from '../framing/json-field.js';

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;

export function fitsStrictMode(schema: JsonObject): boolean {
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
  if (isObject) {
    if (schema.additionalProperties !== false) return false;
    const keys = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!keys.every((k) => required.includes(k))) return false;
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isJsonObject(map) && !Object.values(map).every((v) => !isJsonObject(v) || fitsStrictMode(v))) return false;
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list) && !list.every((v) => !isJsonObject(v) || fitsStrictMode(v))) return false;
  }
  return !isJsonObject(schema.items) || fitsStrictMode(schema.items);
}
