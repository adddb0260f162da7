// Finds every secret in a config by walking its schema: a field marked `x-secret-ref` holds a
// secret reference, a field marked `x-secret` holds a secret given either literally or by
// reference. Opaque maps (hook settings, store settings) are never guessed at.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { formatPath, type PathSegment } from './config-path.js';
import type { SecretRef } from './schema/secret-ref.js';
import { isPlainObject, kindOf, recordValueSchema, selectVariant } from './schema-walk.js';

export type SecretSite =
  | { path: string; segments: PathSegment[]; kind: 'ref'; ref: SecretRef }
  | { path: string; segments: PathSegment[]; kind: 'literal'; value: string };

export function findSecretSites(schema: TSchema, value: unknown, base: readonly PathSegment[] = []): SecretSite[] {
  const out: SecretSite[] = [];
  walk(schema, value, [...base], out);
  return out;
}

function walk(schema: TSchema, value: unknown, segments: PathSegment[], out: SecretSite[]): void {
  if (value === undefined) return;
  if (schema['x-secret-ref'] === true) {
    if (Value.Check(schema, value)) out.push({ path: formatPath(segments), segments, kind: 'ref', ref: value as SecretRef });
    return;
  }
  if (schema['x-secret'] === true && typeof value === 'string') {
    out.push({ path: formatPath(segments), segments, kind: 'literal', value });
    return;
  }
  switch (kindOf(schema)) {
    case 'Object':
      if (!isPlainObject(value)) return;
      for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
        walk(property, value[key], [...segments, key], out);
      }
      return;
    case 'Record':
      if (!isPlainObject(value)) return;
      for (const key of Object.keys(value)) walk(recordValueSchema(schema), value[key], [...segments, key], out);
      return;
    case 'Array':
      if (!Array.isArray(value)) return;
      value.forEach((item, index) => walk(schema.items as TSchema, item, [...segments, index], out));
      return;
    case 'Union': {
      const variant = selectVariant(schema, value);
      if (variant >= 0) walk((schema.anyOf as TSchema[])[variant]!, value, segments, out);
      return;
    }
  }
}
