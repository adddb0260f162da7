// Turns TypeBox's validation errors into config issues an operator can act on: one line each,
// named by the config path (`pools.main.on_exhausted`), deduplicated, with unions explained by
// the variant the value meant (an auth block is judged against its `mode`). Values are echoed
// only where they cannot be secrets: enum words, numbers and pattern-checked names.
import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { formatPath, type ConfigIssue, type PathSegment } from './config-path.js';
import { discriminatorOf, isPlainObject, kindOf, objectKeys, selectVariant } from './schema-walk.js';

/** Every schema violation of `value`, each under `base` + its own path. */
export function schemaIssues(schema: TSchema, value: unknown, base: readonly PathSegment[] = []): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  const seen = new Set<string>();
  const renderer = { root: value, base, out, seen, missing: new Set<string>() };
  renderErrors(renderer, Value.Errors(schema, value));
  return out;
}

interface Renderer {
  root: unknown;
  base: readonly PathSegment[];
  out: ConfigIssue[];
  /** `path: message` lines already emitted. */
  seen: Set<string>;
  /** Paths reported as missing, so their follow-on type errors are dropped. */
  missing: Set<string>;
}

function renderErrors(r: Renderer, errors: Iterable<ValueError>): void {
  for (const error of errors) renderError(r, error);
}

function push(r: Renderer, segments: PathSegment[], message: string): void {
  const path = formatPath([...r.base, ...segments]);
  const key = `${path}\u0000${message}`;
  if (r.seen.has(key)) return;
  r.seen.add(key);
  r.out.push({ path, message });
}

function renderError(r: Renderer, error: ValueError): void {
  const segments = pointerSegments(error.path, r.root);
  const pathKey = formatPath(segments);
  const schema = error.schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      r.missing.add(pathKey);
      return push(r, segments, 'required setting is missing');
    case ValueErrorType.ObjectAdditionalProperties:
      if (kindOf(schema) === 'Record') return push(r, segments, `invalid name ${JSON.stringify(segments[segments.length - 1])}`);
      return push(r, segments, `unknown setting (expected one of: ${Object.keys(schema.properties as object).join(', ')})`);
    case ValueErrorType.Union:
      return renderUnion(r, error, segments);
    case ValueErrorType.Literal:
      return push(r, segments, `expected ${JSON.stringify(schema.const)}`);
    case ValueErrorType.StringPattern:
      return push(r, segments, `expected ${schema['x-expected'] ?? `a string matching ${schema.pattern}`}, got ${JSON.stringify(error.value)}`);
    case ValueErrorType.StringMinLength:
      return push(r, segments, schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`);
    case ValueErrorType.ArrayMinItems:
      return push(r, segments, `needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return push(r, segments, `must be >= ${schema.minimum}, got ${String(error.value)}`);
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return push(r, segments, `must be <= ${schema.maximum}, got ${String(error.value)}`);
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return push(r, segments, `must be > ${schema.exclusiveMinimum}, got ${String(error.value)}`);
    default:
      if (error.value === undefined && r.missing.has(pathKey)) return;
      if (isTypeError(error.type)) return push(r, segments, `expected ${describe(schema)}, got ${typeName(error.value)}`);
      return push(r, segments, error.message);
  }
}

function isTypeError(type: ValueErrorType): boolean {
  return [
    ValueErrorType.String,
    ValueErrorType.Number,
    ValueErrorType.Integer,
    ValueErrorType.Boolean,
    ValueErrorType.Object,
    ValueErrorType.Array,
    ValueErrorType.Null,
  ].includes(type);
}

function renderUnion(r: Renderer, error: ValueError, segments: PathSegment[]): void {
  const union = error.schema;
  const variants = union.anyOf as TSchema[];
  const value = error.value;
  if (value === undefined && r.missing.has(formatPath(segments))) return;
  const discriminator = discriminatorOf(union);
  if (discriminator !== undefined && isPlainObject(value)) {
    const index = selectVariant(union, value);
    if (index >= 0) return renderErrors(r, error.errors[index]!);
    const words = variants.map((variant) => String((variant.properties as Record<string, TSchema>)[discriminator]!.const));
    const where = [...segments, discriminator];
    if (value[discriminator] === undefined) return push(r, where, `required setting is missing (one of: ${words.join(', ')})`);
    const noun = `${nounOf(segments)} ${discriminator}`.trim();
    return push(r, where, `unknown ${noun} ${JSON.stringify(value[discriminator])} (expected one of: ${words.join(', ')})`);
  }
  if (variants.every((variant) => kindOf(variant) === 'Literal')) {
    const words = variants.map((variant) => JSON.stringify(variant.const)).join(', ');
    if (typeof value === 'string') return push(r, segments, `unknown ${nounOf(segments)} ${JSON.stringify(value)} (expected one of: ${words})`);
    return push(r, segments, `expected one of: ${words}; got ${typeName(value)}`);
  }
  const index = selectVariant(union, value);
  if (index >= 0) return renderErrors(r, error.errors[index]!);
  if (union['x-secret-ref'] === true || union['x-secret'] === true) {
    // A secret's value is never echoed: only its JS type, or a mapping's keys.
    const got = isPlainObject(value)
      ? `a mapping with ${Object.keys(value).length === 0 ? 'no keys' : `keys ${Object.keys(value).join(', ')}`}`
      : typeWord(value);
    return push(r, segments, `expected ${describe(union)}, got ${got}`);
  }
  const shown = typeof value === 'string' ? JSON.stringify(value) : typeName(value);
  return push(r, segments, `invalid ${nounOf(segments)} ${shown} (expected ${describe(union)})`);
}

/** The last named key of the path, used as the noun of a message ("unknown protocol"). */
function nounOf(segments: PathSegment[]): string {
  for (let index = segments.length - 1; index >= 0; index--) {
    if (typeof segments[index] === 'string') return segments[index] as string;
  }
  return 'value';
}

function describe(schema: TSchema): string {
  if (schema['x-secret-ref'] === true) return 'a secret reference ({ env: VAR }, { file: path } or { module, settings })';
  switch (kindOf(schema)) {
    case 'String':
      return 'a string';
    case 'Number':
      return 'a number';
    case 'Integer':
      return 'an integer';
    case 'Boolean':
      return 'true or false';
    case 'Literal':
      return JSON.stringify(schema.const);
    case 'Array':
      return 'a list';
    case 'Record':
      return 'a mapping';
    case 'Object': {
      const keys = objectKeys(schema);
      const required = (schema.required as string[] | undefined) ?? keys;
      return required.length > 0 && required.length <= 3 ? `{ ${required.join(', ')} }` : 'a mapping';
    }
    case 'Union':
      return `one of: ${(schema.anyOf as TSchema[]).map(describe).join(', ')}`;
    default:
      return kindOf(schema) ?? 'a value';
  }
}

function typeWord(value: unknown): string {
  if (value === null || value === undefined || Array.isArray(value) || typeof value === 'object') return typeName(value);
  return `a ${typeof value}`;
}

function typeName(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

/** JSON pointer -> path segments, using the value to tell list indexes from mapping keys. */
function pointerSegments(pointer: string, root: unknown): PathSegment[] {
  if (pointer === '') return [];
  const out: PathSegment[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      out.push(Number(key));
      node = node[Number(key)];
    } else {
      out.push(key);
      node = isPlainObject(node) ? node[key] : undefined;
    }
  }
  return out;
}
