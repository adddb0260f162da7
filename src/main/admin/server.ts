// The admin listener (main thread, its own loopback address): matches a request against the
// declared routes (routes.ts), checks the operator credential, parses the JSON body, runs the
// handler and writes its reply or its AdminError in the error envelope.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AdminContext } from './context.js';
import { AdminError, type AdminCall, type AdminRoute } from './route.js';
import { ADMIN_ROUTES } from './routes.js';

export type { AdminContext } from './context.js';
export const ADMIN_PREFIX = '/api/v1/admin';
const ADMIN_BODY_MAX_BYTES = 8 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, err: AdminError): void {
  send(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

function presentedToken(req: IncomingMessage): string {
  const header = req.headers['x-admin-token'];
  if (typeof header === 'string') return header;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7);
  return '';
}

function tokenMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ADMIN_BODY_MAX_BYTES) throw new AdminError(400, 'invalid_request', `the body is larger than ${ADMIN_BODY_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new AdminError(400, 'invalid_request', `malformed body: ${(err as Error).message}`);
  }
}

/** A declared path as a matcher: `/keys/{id}` -> segments with parameter names. */
interface CompiledRoute {
  route: AdminRoute<AdminContext>;
  segments: Array<{ literal: string } | { param: string }>;
}

function compileRoutes(routes: AdminRoute<AdminContext>[]): CompiledRoute[] {
  return routes.map((route) => ({
    route,
    segments: route.path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
  }));
}

function matchPath(compiled: CompiledRoute, parts: string[]): Record<string, string> | null {
  if (compiled.segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = compiled.segments[i]!;
    if ('literal' in seg) {
      if (seg.literal !== parts[i]) return null;
    } else {
      params[seg.param] = decodeURIComponent(parts[i]!);
    }
  }
  return params;
}

async function route(ctx: AdminContext, table: CompiledRoute[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  if (!url.pathname.startsWith(ADMIN_PREFIX)) throw new AdminError(404, 'not_found', 'no such admin path');
  const parts = url.pathname.slice(ADMIN_PREFIX.length).split('/').slice(1);
  const method = req.method ?? 'GET';
  const allowed: string[] = [];
  let found: { compiled: CompiledRoute; params: Record<string, string> } | null = null;
  for (const compiled of table) {
    const params = matchPath(compiled, parts);
    if (params === null) continue;
    allowed.push(compiled.route.method);
    if (compiled.route.method === method) found = { compiled, params };
  }
  if (found === null) {
    if (allowed.length === 0) throw new AdminError(404, 'not_found', 'no such admin path');
    throw new AdminError(405, 'method_not_allowed', `use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
  }
  const r = found.compiled.route;
  if (r.public !== true && ctx.adminToken !== null && !tokenMatches(ctx.adminToken, presentedToken(req))) {
    throw new AdminError(401, 'unauthorized', 'missing or invalid admin credential');
  }
  const body = method === 'GET' ? undefined : await readJson(req);
  const call: AdminCall = {
    params: found.params,
    query: url.searchParams,
    body,
    principal: { id: ctx.adminToken === null ? 'anonymous' : 'admin', scope: 'full' },
  };
  const reply = await r.handler(call, ctx);
  send(res, reply.status, reply.body, reply.headers);
}

export function startAdminServer(ctx: AdminContext, host: string, port: number): Promise<Server> {
  const table = compileRoutes(ADMIN_ROUTES);
  const server = createServer((req, res) => {
    route(ctx, table, req, res).catch((err: Error) => {
      if (err instanceof AdminError) {
        if (!res.headersSent) sendError(res, err);
        return;
      }
      ctx.log.error({ err: err.message }, 'admin request failed');
      if (!res.headersSent) sendError(res, new AdminError(500, 'internal', 'internal error'));
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
