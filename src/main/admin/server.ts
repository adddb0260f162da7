// The admin listener (main thread, its own loopback address). For every declared route
// (routes.ts) the router does the same things in the same order: match the path (404) and the
// method (405 + Allow), authenticate through the live `auth.admin_auth` chain (401), check the
// scope (403), validate the query and body against the route's schemas (400), run the handler,
// and write its reply or its AdminError in the error envelope. A mutation (a route with
// `audit`) appends one audit entry: `applied` when the handler returns, `rejected` when the
// attempt is refused after authentication. Resource files never write audit entries.
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AdminContext } from './context.js';
import { authenticateAdmin, authorize } from './guard.js';
import { StoreUnavailableError } from '../store/store-unavailable.js';
import { AdminError, JsonText, type AdminCall, type AdminPrincipal, type AdminReply, type AdminRoute } from './route.js';
import { ADMIN_ROUTES } from './routes.js';
import { serveConsole } from './console-static.js';
import { auditNameProblem } from '../audit/audit-text.js';
import { checkBody, checkParams, checkQuery } from './validate.js';
import { JSON_WITHIN_LIMITS, checkJsonLimits, jsonLimitMessage, type JsonLimits } from '../../shared/protocols/framing/json-limits.js';

export type { AdminContext } from './context.js';
const ADMIN_PREFIX = '/api/v1/admin';
const ADMIN_BODY_MAX_BYTES = 8 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, err: AdminError): void {
  send(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

/**
 * 413, and the connection ends after the answer: the rest of the body is never read, so a
 * keep-alive connection would otherwise sit with the client still sending into it.
 */
function bodyTooLarge(): AdminError {
  return new AdminError(413, 'invalid_request', `the body is larger than ${ADMIN_BODY_MAX_BYTES} bytes`, { connection: 'close' });
}

/** The body as JSON: refused past the byte cap (413) and past the JSON limits (400) before JSON.parse sees it. */
async function readJson(req: IncomingMessage, limits: JsonLimits): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > ADMIN_BODY_MAX_BYTES) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  const done = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= ADMIN_BODY_MAX_BYTES) chunks.push(chunk);
      else {
        // Stop reading (not destroy: the 413 is still to be written on this socket).
        req.off('data', onData);
        req.pause();
        reject(bodyTooLarge());
      }
    };
    req.on('data', onData);
    req.once('end', resolve);
    req.once('error', reject);
  });
  await done;
  if (size === 0) return undefined;
  const bytes = Buffer.concat(chunks);
  const verdict = checkJsonLimits(bytes, limits);
  if (verdict !== JSON_WITHIN_LIMITS) throw new AdminError(400, 'invalid_request', jsonLimitMessage(verdict, limits));
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new AdminError(400, 'invalid_request', `malformed JSON body: ${(err as Error).message}`);
  }
}

/** A declared path as a matcher: `/keys/{id}` -> segments with parameter names. */
export interface CompiledRoute<Ctx = AdminContext> {
  route: AdminRoute<Ctx>;
  segments: Array<{ literal: string } | { param: string }>;
}

export function compileRoutes<Ctx>(routes: AdminRoute<Ctx>[]): CompiledRoute<Ctx>[] {
  return routes.map((route) => ({
    route,
    segments: route.path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
  }));
}

function matchPath<Ctx>(compiled: CompiledRoute<Ctx>, parts: string[]): Record<string, string> | null {
  if (compiled.segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = compiled.segments[i]!;
    if ('literal' in seg) {
      if (seg.literal !== parts[i]) return null;
    } else {
      try {
        params[seg.param] = decodeURIComponent(parts[i]!);
      } catch {
        return null;
      }
      if (params[seg.param] === '') return null;
    }
  }
  return params;
}

/** The route for `method pathname`, or the 404/405 AdminError to answer. */
export function matchRoute<Ctx>(table: CompiledRoute<Ctx>[], method: string, pathname: string): { route: AdminRoute<Ctx>; params: Record<string, string> } {
  if (pathname !== ADMIN_PREFIX && !pathname.startsWith(`${ADMIN_PREFIX}/`)) throw new AdminError(404, 'not_found', 'no such admin path');
  const parts = pathname.slice(ADMIN_PREFIX.length).split('/').slice(1);
  const allowed: string[] = [];
  for (const compiled of table) {
    const params = matchPath(compiled, parts);
    if (params === null) continue;
    if (compiled.route.method === method) return { route: compiled.route, params };
    allowed.push(compiled.route.method);
  }
  if (allowed.length === 0) throw new AdminError(404, 'not_found', 'no such admin path');
  throw new AdminError(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
}

/**
 * The admin chain's principal; a source that failed too often this window gets 429 before any
 * credential check, and a 401 is counted, logged and (on a mutation) audited, coalesced
 * (auth-failures.ts).
 */
async function authenticateOrRecord(
  ctx: AdminContext,
  route: AdminRoute<AdminContext>,
  call: AdminCall,
  req: IncomingMessage,
  method: string,
  path: string,
): Promise<AdminPrincipal> {
  const source = req.socket.remoteAddress ?? 'unknown';
  const attempt = (reason: string) => ({
    method,
    path,
    audit: route.audit !== undefined ? { action: route.audit.action, resource: auditResource(route, call) } : null,
    reason,
  });
  const waitSecs = ctx.authFailures.blockedSecs(source);
  if (waitSecs > 0) {
    ctx.authFailures.refused(source, attempt('rate limited'));
    throw new AdminError(429, 'rate_limited', `too many failed admin authentications from this address; retry in ${waitSecs} s`, {
      'retry-after': String(waitSecs),
    });
  }
  const live = ctx.config.loaded;
  try {
    return await authenticateAdmin(req.headers, live.config?.auth.admin_auth ?? [], live.adminToken, ctx.identity ?? null);
  } catch (err) {
    if (err instanceof AdminError && err.status === 401) ctx.authFailures.failed(source, attempt(err.message));
    throw err;
  }
}

/** A mutation's path names (a key id, a group or hook name) reach the audit resource: none may hold "|" or a control character. */
function refuseUnauditableNames(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    const problem = auditNameProblem(value);
    if (problem !== null) throw new AdminError(400, 'invalid_request', `path: ${name} ${problem}`);
  }
}

function auditResource(route: AdminRoute<AdminContext>, call: AdminCall, reply?: AdminReply): string {
  try {
    return route.audit!.resource(call, reply);
  } catch {
    return route.path;
  }
}

async function handle(ctx: AdminContext, table: CompiledRoute[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  const method = req.method ?? 'GET';
  const { route, params } = matchRoute(table, method, url.pathname);
  const call: AdminCall = { params, query: url.searchParams, body: undefined, principal: { id: 'anonymous', scope: 'full' } };
  if (route.public !== true) call.principal = await authenticateOrRecord(ctx, route, call, req, method, url.pathname);
  const principal = call.principal;
  try {
    authorize(principal, route.scope ?? (method === 'GET' ? 'read-only' : 'full'));
    if (route.audit !== undefined) refuseUnauditableNames(params);
    if (route.params !== undefined) checkParams(route.params, params);
    if (route.query !== undefined) checkQuery(route.query, url.searchParams);
    call.body = method === 'GET' || method === 'DELETE' ? undefined : await readJson(req, ctx.config.compiled.limits);
    if (route.body !== undefined) checkBody(route.body, call.body);
    const reply = await route.handler(call, ctx);
    if (route.audit !== undefined)
      ctx.audit.append({ action: route.audit.action, resource: auditResource(route, call, reply), outcome: 'applied', principal: principal.id });
    send(res, reply.status, reply.body, reply.headers);
    reply.afterSend?.();
  } catch (err) {
    // Any refused or failed attempt at a mutation changed nothing: it is audited as rejected.
    if (route.audit !== undefined)
      ctx.audit.append({ action: route.audit.action, resource: auditResource(route, call), outcome: 'rejected', principal: principal.id });
    throw err;
  }
}

export function startAdminServer(ctx: AdminContext, host: string, port: number): Promise<Server> {
  const table = compileRoutes(ADMIN_ROUTES);
  const server = createServer((req, res) => {
    if (serveConsole(req, res, new URL(req.url ?? '/', 'http://admin').pathname)) return;
    handle(ctx, table, req, res).catch((err: Error) => {
      if (err instanceof AdminError) {
        if (!res.headersSent) sendError(res, err);
        // Connection: close makes node end the socket once the answer is out; a client still
        // sending a body it was refused for is cut off there rather than left on a live socket.
        if (err.headers?.connection === 'close') res.once('finish', () => req.socket.destroySoon());
        return;
      }
      ctx.log.error({ err: err.message }, 'admin request failed');
      // A shared store that is down: 503 with a message that says so (never a secret: URLs are not in it).
      if (err instanceof StoreUnavailableError) {
        if (!res.headersSent) sendError(res, new AdminError(503, 'internal', `${err.message}; retry once it is back`));
        else res.destroy();
        return;
      }
      if (!res.headersSent) sendError(res, new AdminError(500, 'internal', 'internal error'));
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
