// The OpenAPI 3.1 document of the admin API, generated from the route declarations: the same
// TypeBox schemas that validate requests describe them here. Schemas with a `title` become
// named components (`InfoView`, `AuditPage`, ...), so generated clients get their names.
import type { TSchema } from '@sinclair/typebox';
import type { AdminRoute } from './route.js';

const OPENAPI_VERSION = '1.4.1';
const ADMIN_API_TITLE = 'LLM gateway admin API';

const ERROR_ENVELOPE = {
  type: 'object',
  title: 'ErrorEnvelope',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          enum: ['not_found', 'unauthorized', 'method_not_allowed', 'forbidden', 'invalid_request', 'version_conflict', 'conflict', 'rate_limited', 'internal'],
        },
        message: { type: 'string' },
      },
    },
  },
};

/** Error statuses any authenticated operation may answer (API-DECISIONS: status codes). */
const ERROR_STATUSES: Record<string, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'version_conflict or conflict',
  429: 'rate_limited',
  500: 'internal',
  // A shared store (postgres, valkey) that cannot be reached: code `internal`, the message says so.
  503: 'internal (the store is unavailable)',
};

type Json = Record<string, unknown>;

/** Titles given to two different schemas while generating (should stay empty). */
export const TITLE_CLASHES = new Set<string>();

/** Plain JSON of a TypeBox schema (its symbol keys dropped), titled sub-schemas hoisted to components. */
function hoist(schema: unknown, components: Json): unknown {
  if (Array.isArray(schema)) return schema.map((item) => hoist(item, components));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = hoist(value, components);
  // TypeBox writes a string-keyed Record as a match-all patternProperties; additionalProperties
  // says the same in the form client generators understand.
  const patterns = out.patternProperties as Json | undefined;
  if (patterns !== undefined && Object.keys(patterns).length === 1 && '^(.*)$' in patterns) {
    out.additionalProperties = patterns['^(.*)$'];
    delete out.patternProperties;
  }
  const title = out.title;
  if (typeof title !== 'string') return out;
  const have = components[title];
  // Two different schemas under one title (two resource files each declaring a PoolView):
  // the later one stays inline, and the contract test names the clash.
  if (have !== undefined && JSON.stringify(have) !== JSON.stringify(out)) {
    TITLE_CLASHES.add(title);
    return out;
  }
  components[title] = out;
  return { $ref: `#/components/schemas/${title}` };
}

function jsonContent(schema: TSchema, components: Json): Json {
  return { 'application/json': { schema: hoist(JSON.parse(JSON.stringify(schema)), components) } };
}

function parameters(route: AdminRoute<unknown>, components: Json): Json[] {
  const out: Json[] = [];
  const pathProps = ((route.params as Json | undefined)?.properties ?? {}) as Record<string, TSchema>;
  for (const match of route.path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    out.push({ name, in: 'path', required: true, schema: hoist(JSON.parse(JSON.stringify(pathProps[name] ?? { type: 'string' })), components) });
  }
  const query = route.query as Json | undefined;
  const required = (query?.required ?? []) as string[];
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, TSchema>)) {
    out.push({ name, in: 'query', required: required.includes(name), schema: hoist(JSON.parse(JSON.stringify(schema)), components) });
  }
  return out;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/**
 * The 405 every path answers for a method it does not declare, with `Allow` naming those it
 * does (server.ts matchRoute). An OpenAPI path cannot declare responses of methods it lacks, so
 * each operation carries it: "this path, another method".
 */
const METHOD_NOT_ALLOWED = {
  description: 'method_not_allowed: another method on this path; `Allow` lists the methods the path declares',
  headers: { Allow: { description: 'The methods this path answers, e.g. `GET, PATCH`.', schema: { type: 'string' } } },
  content: ERROR_CONTENT,
};

/** A body over the admin listener's cap: 413 `invalid_request`, and the connection is closed (`Connection: close`). */
const BODY_TOO_LARGE = {
  description: 'invalid_request: the body is larger than the admin listener accepts; the connection is closed after the answer',
  content: ERROR_CONTENT,
};

function operation(route: AdminRoute<unknown>, components: Json): Json {
  const responses: Json = {};
  for (const [status, schema] of Object.entries(route.responses)) responses[status] = { description: route.summary, content: jsonContent(schema, components) };
  for (const [status, codes] of Object.entries(ERROR_STATUSES)) {
    if (route.public === true && (status === '401' || status === '403')) continue;
    responses[status] = { description: codes, content: ERROR_CONTENT };
  }
  responses['405'] = { $ref: '#/components/responses/MethodNotAllowed' };
  if (route.body !== undefined) responses['413'] = { $ref: '#/components/responses/BodyTooLarge' };
  const op: Json = { operationId: route.operationId, summary: route.summary, tags: [route.tag], responses };
  const params = parameters(route, components);
  if (params.length > 0) op.parameters = params;
  if (route.body !== undefined) {
    const required = ((route.body as Json).required ?? []) as string[];
    op.requestBody = { required: required.length > 0, content: jsonContent(route.body, components) };
  }
  if (route.public === true) op.security = [];
  if (route.audit !== undefined) op['x-audit-action'] = route.audit.action;
  return op;
}

export function openApiDocument(routes: AdminRoute<unknown>[]): Json {
  const components: Json = { ErrorEnvelope: ERROR_ENVELOPE };
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operation(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: ADMIN_API_TITLE,
      version: OPENAPI_VERSION,
      description:
        'The admin API of the gateway, under {admin_url}/api/v1/admin. Additive-only: fields and endpoints may be added, never removed; clients must tolerate unknown fields. Every list is paged with `limit` and `cursor`.',
    },
    servers: [{ url: '/api/v1/admin' }],
    security: [{ adminToken: [] }, { bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        adminToken: { type: 'apiKey', in: 'header', name: 'x-admin-token', description: 'The operator token (admin-tokens module).' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The operator token as Authorization: Bearer.' },
      },
      responses: { BodyTooLarge: BODY_TOO_LARGE, MethodNotAllowed: METHOD_NOT_ALLOWED },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : 1))),
    },
  };
}
