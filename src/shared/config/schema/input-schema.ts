// The schemas list every defaulted property as required, because the loader fills defaults
// before it validates and the code then reads a complete config. What a client may send is
// looser: a property with a `default` may be omitted. This gives that input view as plain
// JSON Schema, for the OpenAPI document.
import type { TSchema } from '@sinclair/typebox';

export function inputSchema(schema: TSchema): Record<string, unknown> {
  return strip(JSON.parse(JSON.stringify(schema))) as Record<string, unknown>;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'default' ? value : strip(value);
  const properties = out.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties !== undefined && Array.isArray(out.required)) {
    const required = (out.required as string[]).filter((name) => !('default' in (properties[name] ?? {})));
    if (required.length === 0) delete out.required;
    else out.required = required;
  }
  return out;
}
