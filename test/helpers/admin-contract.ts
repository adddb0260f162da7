// The admin API's contract, checked on every response the tests receive: the OpenAPI document
// (docs/openapi.json, written by the build) must declare the response's status for the
// operation, and the body must validate against that status's schema (ajv, JSON Schema
// 2020-12, as OpenAPI 3.1 uses).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export const ADMIN_OPENAPI: Json = JSON.parse(readFileSync(join(process.cwd(), 'docs', 'openapi.json'), 'utf8')) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

const templates = Object.keys(ADMIN_OPENAPI.paths as Json).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The declared path template of an admin path (`/config/versions/3` -> `/config/versions/{v}`). */
function templateOf(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

function validatorFor(template: string, method: string, status: number): ValidateFunction | string {
  const key = `${method} ${template} ${status}`;
  const have = validators.get(key);
  if (have !== undefined) return have;
  const op = ((ADMIN_OPENAPI.paths as Json)[template] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
  if (op === undefined) return `the document has no operation ${method} ${template}`;
  let response = (op.responses as Json)[String(status)] as Json | undefined;
  if (response === undefined) return `the document does not declare status ${status} for ${method} ${template}`;
  // A shared response (405, 413) is a reference into components.responses.
  const ref = response.$ref;
  if (typeof ref === 'string') response = ((ADMIN_OPENAPI.components as Json).responses as Json)[ref.split('/').pop()!] as Json;
  const schema = ((response.content as Json)['application/json'] as Json).schema as Json;
  // The components ride along so `#/components/schemas/...` resolves inside this schema.
  const validate = ajv.compile({ ...schema, components: ADMIN_OPENAPI.components });
  validators.set(key, validate);
  return validate;
}

/** Throws when a response breaks the document. `path` is relative to /api/v1/admin. */
export function checkAdminResponse(method: string, path: string, status: number, body: unknown): void {
  const template = templateOf(path);
  if (template === undefined) throw new Error(`contract: ${method} ${path} is not a path of the admin OpenAPI document`);
  const validate = validatorFor(template, method, status);
  if (typeof validate === 'string') throw new Error(`contract: ${validate}`);
  if (!validate(body)) {
    throw new Error(
      `contract: ${method} ${path} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
