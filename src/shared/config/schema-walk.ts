// Small helpers to walk a TypeBox schema alongside a value: what kind a schema is, and which
// variant of a union a value means. Used by the default filler, the error renderer and the
// secret finder, so that all three read a union the same way.
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** TypeBox's kind of a schema (`Object`, `Union`...); undefined for a schema TypeBox did not make. */
export function kindOf(schema: TSchema): string | undefined {
  return (schema as unknown as Record<symbol, string | undefined>)[Kind];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value schema of a TypeBox Record (its one pattern property). */
export function recordValueSchema(schema: TSchema): TSchema {
  return Object.values(schema.patternProperties as Record<string, TSchema>)[0]!;
}

/** The property every variant pins to a literal (e.g. `mode`), if the union has one. */
export function discriminatorOf(union: TSchema): string | undefined {
  const variants = union.anyOf as TSchema[];
  if (variants[0] === undefined || !variants.every((variant) => kindOf(variant) === 'Object')) return undefined;
  const first = variants[0].properties as Record<string, TSchema>;
  return Object.keys(first).find((key) =>
    variants.every((variant) => {
      const property = (variant.properties as Record<string, TSchema>)[key];
      return property !== undefined && kindOf(property) === 'Literal';
    }),
  );
}

/** Whether `schema` could hold a value of this JS type (ignoring finer constraints). */
function acceptsType(schema: TSchema, value: unknown): boolean {
  switch (kindOf(schema)) {
    case 'String':
      return typeof value === 'string';
    case 'Number':
    case 'Integer':
      return typeof value === 'number';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Literal':
      return typeof value === typeof schema.const;
    case 'Object':
    case 'Record':
      return isPlainObject(value);
    case 'Array':
      return Array.isArray(value);
    case 'Union':
      return (schema.anyOf as TSchema[]).some((variant) => acceptsType(variant, value));
    case 'Unknown':
    case 'Any':
      return true;
    default:
      return false;
  }
}

/**
 * Index of the variant `value` means, or -1. In order: the variant named by the
 * discriminator; the first variant the value fully satisfies; the only variant of the right
 * JS type; among object variants, the one sharing the most keys with the value.
 */
export function selectVariant(union: TSchema, value: unknown): number {
  const variants = union.anyOf as TSchema[];
  const discriminator = discriminatorOf(union);
  if (discriminator !== undefined) {
    if (!isPlainObject(value)) return -1;
    return variants.findIndex((variant) => (variant.properties as Record<string, TSchema>)[discriminator]!.const === value[discriminator]);
  }
  const exact = variants.findIndex((variant) => Value.Check(variant, value));
  if (exact >= 0) return exact;
  const typed = variants.map((variant, index) => (acceptsType(variant, value) ? index : -1)).filter((index) => index >= 0);
  if (typed.length === 1) return typed[0]!;
  if (typed.length > 1 && isPlainObject(value)) return bestKeyOverlap(variants, typed, value);
  return -1;
}

function bestKeyOverlap(variants: TSchema[], candidates: number[], value: Record<string, unknown>): number {
  let best = -1;
  let bestScore = 0;
  let tie = false;
  for (const index of candidates) {
    const score = objectKeys(variants[index]!).filter((key) => key in value).length;
    if (score > bestScore) [best, bestScore, tie] = [index, score, false];
    else if (score === bestScore && score > 0) tie = true;
  }
  return tie ? -1 : best;
}

/** Property names an object-like schema knows (through nested unions too). */
export function objectKeys(schema: TSchema): string[] {
  if (kindOf(schema) === 'Object') return Object.keys(schema.properties as object);
  if (kindOf(schema) === 'Union') return [...new Set((schema.anyOf as TSchema[]).flatMap(objectKeys))];
  return [];
}
