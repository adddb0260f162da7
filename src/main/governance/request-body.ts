// Admin bodies checked against their TypeBox schema here as well as by the router, so a
// governance mutation never runs on a body it did not validate: the first error, by path.
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AdminError } from '../admin/route.js';
import { schemaAccepts } from '../admin/compiled-check.js';
import { errorText } from '../admin/validate.js';

export function checkBody<T extends TSchema>(schema: T, body: unknown): Static<T> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AdminError(400, 'invalid_request', 'the body must be a JSON object');
  }
  if (!schemaAccepts(schema, body)) {
    const first = Value.Errors(schema, body).First();
    const where = first === undefined || first.path === '' ? 'body' : first.path.slice(1).replace(/\//g, '.');
    throw new AdminError(400, 'invalid_request', `${where}: ${first === undefined ? 'invalid' : errorText(first)}`);
  }
  return body as Static<T>;
}
