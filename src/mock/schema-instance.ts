// A minimal value that validates against a JSON Schema, so that the mock answers a
// structured-output request (or a forced tool call) with JSON the caller's own parser accepts.
// Deterministic: the same schema gives the same value. Covers the keywords structured-output
// schemas use (JSON Schema and Gemini's OpenAPI subset, whose type names are capitals):
// type (or a list of types), enum, const, anyOf/oneOf (the first branch), allOf (merged),
// $ref into $defs/definitions, properties/required, items/prefixItems/minItems, string
// length and common formats, numeric bounds and multipleOf, nullable. A pattern cannot be
// generated in general and is not honoured.

type Schema = Record<string, unknown>;

const REF_DEPTH_MAX = 16;

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const FORMAT_VALUES: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'mock@example.com',
  hostname: 'example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** A value valid under `schema` (the root, for $ref resolution). */
export function schemaInstance(schema: unknown): unknown {
  return instance(schema, isObject(schema) ? schema : {}, 0);
}

function instance(schema: unknown, root: Schema, depth: number): unknown {
  if (!isObject(schema) || depth > REF_DEPTH_MAX) return null;
  if (typeof schema.$ref === 'string') return instance(resolveRef(schema.$ref, root), root, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (branches !== null && branches.length > 0) return instance(branches[0], root, depth + 1);
  if (Array.isArray(schema.allOf)) return instance(mergeAll(schema), root, depth + 1);
  switch (typeOf(schema)) {
    case 'object':
      return objectInstance(schema, root, depth);
    case 'array':
      return arrayInstance(schema, root, depth);
    case 'string':
      return stringInstance(schema);
    case 'integer':
      return numberInstance(schema, true);
    case 'number':
      return numberInstance(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return isObject(schema.properties) ? objectInstance(schema, root, depth) : null;
  }
}

/** The schema's type in lower case; of a list, the first that is not "null". */
function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t.toLowerCase();
  if (Array.isArray(t)) {
    const named = t.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase());
    return named.find((x) => x !== 'null') ?? named[0];
  }
  return undefined;
}

function resolveRef(ref: string, root: Schema): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = isObject(at) ? at[key] : undefined;
  }
  return at;
}

function mergeAll(schema: Schema): Schema {
  const merged: Schema = { ...schema };
  delete merged.allOf;
  const properties: Schema = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const part of schema.allOf as unknown[]) {
    if (!isObject(part)) continue;
    for (const [k, v] of Object.entries(part)) if (k !== 'properties' && k !== 'required' && merged[k] === undefined) merged[k] = v;
    if (isObject(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) for (const r of part.required) if (typeof r === 'string') required.add(r);
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** Every required property (the optional ones are left out: the value is minimal). */
function objectInstance(schema: Schema, root: Schema, depth: number): Schema {
  const out: Schema = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  for (const name of required) out[name] = instance(properties[name] ?? {}, root, depth + 1);
  return out;
}

function arrayInstance(schema: Schema, root: Schema, depth: number): unknown[] {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const out: unknown[] = prefix.map((s) => instance(s, root, depth + 1));
  while (out.length < min) out.push(instance(schema.items ?? {}, root, depth + 1));
  return out;
}

function stringInstance(schema: Schema): string {
  const formatted = typeof schema.format === 'string' ? FORMAT_VALUES[schema.format] : undefined;
  let text = formatted ?? 'mock';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(min, 'x');
  if (text.length > max) text = text.slice(0, max);
  return text;
}

/** The smallest value the bounds allow (0 when 0 is allowed), on a multipleOf step. */
function numberInstance(schema: Schema, integer: boolean): number {
  const num = (k: string): number | undefined => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const step = num('multipleOf') ?? (integer ? 1 : undefined);
  let low = num('minimum') ?? -Infinity;
  const exclusiveLow = num('exclusiveMinimum');
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow + (step ?? Number.EPSILON));
  const high = Math.min(num('maximum') ?? Infinity, num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - (step ?? Number.EPSILON) : Infinity);
  let value = low <= 0 && high >= 0 ? 0 : low === -Infinity ? high : low;
  if (step !== undefined) value = Math.ceil(value / step) * step;
  return integer ? Math.ceil(value) : value;
}
