// A schema's check compiled once (TypeBox's TypeCompiler) and reused: Value.Check walks the
// schema on every call, about half a millisecond of main-thread CPU for a mint body. Failures
// still go through Value.Errors for their messages (the rare path).
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';

const compiled = new WeakMap<TSchema, (value: unknown) => boolean>();

export function schemaAccepts(schema: TSchema, value: unknown): boolean {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      const typeCheck = TypeCompiler.Compile(schema);
      check = (v) => typeCheck.Check(v);
    } catch {
      // A schema the compiler does not take (an unregistered kind) is checked as before.
      check = (v) => Value.Check(schema, v);
    }
    compiled.set(schema, check);
  }
  return check(value);
}
