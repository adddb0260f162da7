// The shape every admin endpoint is declared in. One resource file under src/main/admin/
// exports an array of AdminRoute; the router (server.ts) matches them, checks the admin
// credential and scope, validates the query and body against the TypeBox schemas, writes the
// audit entry of a mutation (applied, or rejected when the handler throws an AdminError), and
// the OpenAPI document is generated from the same declarations. Fields may be added to these
// interfaces; none is removed or changes meaning.
import type { TSchema } from '@sinclair/typebox';

type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AdminScope = 'read-only' | 'full';
export type AdminErrorCode =
  | 'not_found'
  | 'unauthorized'
  | 'method_not_allowed'
  | 'forbidden'
  | 'invalid_request'
  | 'version_conflict'
  | 'conflict'
  | 'rate_limited'
  | 'internal';

/** Who made an admin call: `admin` for the operator token, `anonymous` for the open posture. */
export interface AdminPrincipal {
  id: string;
  scope: AdminScope;
}

export interface AdminCall<Body = unknown> {
  /** Path parameters by the names in `path` (`/keys/{id}` gives `id`), already URL-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed body, validated against `body` when the route declares one. */
  body: Body;
  principal: AdminPrincipal;
}

/** A reply body already serialised (JSON text), written as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface AdminReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Runs once the reply is written (POST /restart starts draining only after answering). */
  afterSend?: () => void;
}

/** A refusal in the admin error envelope; the status follows API-DECISIONS.md. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: AdminErrorCode,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export interface AdminRoute<Ctx = unknown> {
  method: AdminMethod;
  /** Relative to /api/v1/admin, parameters in braces: `/keys/{id}/rotate`. */
  path: string;
  operationId: string;
  summary: string;
  /** OpenAPI tag: the resource's name (`keys`, `config`, ...). */
  tag: string;
  /** Path parameters, as a TObject (strings converted first); absent = every parameter is a string. */
  params?: TSchema;
  /** Query parameters, as a TObject of optional string/integer fields. */
  query?: TSchema;
  /** The request body; absent = the route takes none. */
  body?: TSchema;
  /** Success responses by status. Errors use the shared envelope and need not be listed. */
  responses: Record<number, TSchema>;
  /** Authority needed; default: `read-only` for GET, `full` for every other method. */
  scope?: AdminScope;
  /** True for the one unauthenticated route (GET /openapi.json). */
  public?: boolean;
  /**
   * A mutation: the router appends an audit entry with this action (`key.create`) and the
   * resource `resource(call)` gives (`key:<id>`), outcome `applied` when the handler returns
   * and `rejected` when it throws an AdminError (nothing changed).
   */
  audit?: { action: string; resource(call: AdminCall, reply?: AdminReply): string };
  handler(call: AdminCall, ctx: Ctx): Promise<AdminReply> | AdminReply;
}
