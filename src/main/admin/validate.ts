// Request validation against a route's TypeBox schemas: the query (strings converted to the
// declared types first) and the JSON body. Every failure is listed in one 400.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AdminError } from './route.js';
import { schemaAccepts } from './compiled-check.js';

/** A schema's own words for a failed `pattern` (`x-pattern-message`), else TypeBox's. */
export function errorText(error: { message: string; schema: TSchema }): string {
  const own = (error.schema as { 'x-pattern-message'?: unknown })['x-pattern-message'];
  return typeof own === 'string' && typeof (error.schema as { pattern?: unknown }).pattern === 'string' && error.message.includes('match')
    ? own
    : error.message;
}

function problems(schema: TSchema, value: unknown, where: string): string[] {
  const out: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    const path = error.path === '' ? where : `${where}${error.path.replace(/\//g, '.')}`;
    out.push(`${path}: ${errorText(error)}`);
    if (out.length === 20) break;
  }
  return out;
}

/** Value.Convert truncates "1.5" to 1; an integer field must be written as one. */
function notIntegers(schema: TSchema, raw: Record<string, string>, where: string): string[] {
  const props = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  return Object.entries(raw)
    .filter(([key, value]) => props[key]?.type === 'integer' && !/^-?\d+$/.test(value))
    .map(([key]) => `${where}.${key}: expected an integer`);
}

export function checkQuery(schema: TSchema, query: URLSearchParams): void {
  const raw: Record<string, string> = {};
  for (const [key, value] of query) raw[key] = value;
  const bad = notIntegers(schema, raw, 'query');
  if (bad.length > 0) throw new AdminError(400, 'invalid_request', `invalid query: ${bad.join('; ')}`);
  const converted = Value.Convert(schema, raw);
  if (schemaAccepts(schema, converted)) return;
  throw new AdminError(400, 'invalid_request', `invalid query: ${problems(schema, converted, 'query').join('; ')}`);
}

export function checkParams(schema: TSchema, params: Record<string, string>): void {
  const bad = notIntegers(schema, params, 'path');
  if (bad.length > 0) throw new AdminError(400, 'invalid_request', `invalid path: ${bad.join('; ')}`);
  const converted = Value.Convert(schema, { ...params });
  if (schemaAccepts(schema, converted)) return;
  throw new AdminError(400, 'invalid_request', `invalid path: ${problems(schema, converted, 'path').join('; ')}`);
}

/** An absent body is checked as `{}`: a route whose fields are all optional takes none. */
export function checkBody(schema: TSchema, body: unknown): void {
  if (schemaAccepts(schema, body ?? {})) return;
  throw new AdminError(400, 'invalid_request', `invalid body: ${problems(schema, body ?? {}, 'body').join('; ')}`);
}
