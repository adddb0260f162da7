// Fills schema defaults into a parsed config, in place. TypeBox's Value.Default skips the
// values of a Record unless the value schema itself has a default, and our models, pools and
// providers are Records, so the loader uses this walker instead.
import type { TSchema } from '@sinclair/typebox';
import { isPlainObject, kindOf, recordValueSchema, selectVariant } from './schema-walk.js';

export function applyDefaults(schema: TSchema, value: unknown): unknown {
  let current = value;
  if (current === undefined) {
    if (!('default' in schema)) return undefined;
    current = structuredClone(schema.default);
  }
  switch (kindOf(schema)) {
    case 'Object':
      if (isPlainObject(current)) {
        for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
          const filled = applyDefaults(property, current[key]);
          if (filled !== undefined) current[key] = filled;
        }
      }
      break;
    case 'Record':
      if (isPlainObject(current)) {
        const valueSchema = recordValueSchema(schema);
        for (const key of Object.keys(current)) current[key] = applyDefaults(valueSchema, current[key]);
      }
      break;
    case 'Array':
      if (Array.isArray(current)) {
        for (let index = 0; index < current.length; index++) current[index] = applyDefaults(schema.items as TSchema, current[index]);
      }
      break;
    case 'Union': {
      const variant = selectVariant(schema, current);
      if (variant >= 0) return applyDefaults((schema.anyOf as TSchema[])[variant]!, current);
      break;
    }
  }
  return current;
}
