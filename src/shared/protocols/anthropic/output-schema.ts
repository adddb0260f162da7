// A caller's JSON Schema in the subset Anthropic's structured outputs take (also Bedrock's
// `outputConfig.textFormat`, whose structured outputs follow the same rules): every object is
// closed (`additionalProperties: false`), and the constraints the constrained decoder does not
// take (numeric and length bounds, patterns, most string formats, `minItems` over 1...) move
// into the schema's `description` as text, so the model still reads them. This is the rule the
// vendor's own SDK applies (transformJSONSchema in @anthropic-ai/sdk). An answer valid under the
// result is valid under the caller's schema except for the moved constraints, which the model
// is told but not forced to keep (docs/compatibility.md, "Structured output").
import { isJsonObject, type JsonObject } from '../framing/json-field.js';

const STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

export function anthropicOutputSchema(schema: JsonObject): JsonObject {
  return transform(structuredClone(schema));
}

/** `rest` is the caller's schema (a private copy); what is not moved into `out` is described. */
function transform(rest: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = take(rest, key);
    if (isJsonObject(defs)) out[key] = mapValues(defs);
  }
  const ref = take(rest, '$ref');
  if (ref !== undefined) {
    out.$ref = ref;
    return out;
  }
  if (Array.isArray(rest.enum) && rest.enum.length > 0 && rest.enum.every(isPrimitive)) out.enum = take(rest, 'enum');
  if (rest.const !== undefined && isPrimitive(rest.const)) out.const = take(rest, 'const');
  const literal = 'enum' in out || 'const' in out;
  const type = take(rest, 'type');
  const anyOf = take(rest, 'anyOf');
  const oneOf = take(rest, 'oneOf');
  const allOf = take(rest, 'allOf');
  delete rest.$schema; // names the dialect, constrains nothing
  if (Array.isArray(anyOf ?? oneOf)) out.anyOf = ((anyOf ?? oneOf) as unknown[]).map(sub);
  else if (Array.isArray(allOf)) out.allOf = allOf.map(sub);
  else if (!literal && type !== undefined) out.type = type;
  for (const key of ['description', 'title'] as const) {
    const v = take(rest, key);
    if (v !== undefined) out[key] = v;
  }
  // A type list (`["object", "null"]`) takes each of its members' rules.
  const has = (t: string): boolean => type === t || (Array.isArray(type) && type.includes(t));
  if (has('object')) {
    const properties = take(rest, 'properties');
    out.properties = isJsonObject(properties) ? mapValues(properties) : {};
    delete rest.additionalProperties;
    out.additionalProperties = false;
    const required = take(rest, 'required');
    if (required !== undefined) out.required = required;
  }
  if (has('string') && typeof rest.format === 'string' && STRING_FORMATS.has(rest.format)) out.format = take(rest, 'format');
  if (has('array')) {
    const items = take(rest, 'items');
    if (isJsonObject(items)) out.items = transform(items);
    if (rest.minItems === 0 || rest.minItems === 1) out.minItems = take(rest, 'minItems');
  }
  const moved = Object.entries(rest);
  if (moved.length > 0) {
    const text = `{${moved.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}}`;
    out.description = typeof out.description === 'string' ? `${out.description}\n\n${text}` : text;
  }
  return out;
}

function sub(v: unknown): unknown {
  return isJsonObject(v) ? transform(v) : v;
}

function mapValues(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) out[k] = sub(v);
  return out;
}

function take(o: JsonObject, key: string): unknown {
  const v = o[key];
  delete o[key];
  return v;
}
