// The admin listener (main thread, its own loopback address). This part serves what the
// foundation needs: /info and the config apply/reload path. The full admin API (keys, groups,
// hooks, audit, usage, OpenAPI) is built on this server by later work.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from '../../shared/log.js';
import type { ConfigState } from '../config-state.js';
import type { WorkerPool } from '../workers.js';

export const ADMIN_PREFIX = '/api/v1/admin';
const ADMIN_BODY_MAX_BYTES = 8 * 1024 * 1024;

export interface AdminContext {
  config: ConfigState;
  workers: WorkerPool;
  startedAtSecs: number;
  version: string;
  /** The operator token, or null for the open dev posture (empty admin_auth chain). */
  adminToken: string | null;
  log: Logger;
}

type AdminErrorCode = 'not_found' | 'unauthorized' | 'method_not_allowed' | 'invalid_request' | 'internal' | 'forbidden';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, code: AdminErrorCode, message: string, headers?: Record<string, string>): void {
  send(res, status, { error: { code, message } }, headers);
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
    if (size > ADMIN_BODY_MAX_BYTES) throw new Error(`the body is larger than ${ADMIN_BODY_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function infoView(ctx: AdminContext): unknown {
  const c = ctx.config.compiled;
  return {
    version: ctx.version,
    build: { auth_modules: ['keys'], hook_plugins: [], weighted_floor: true },
    uptime_seconds: Math.floor(Date.now() / 1000) - ctx.startedAtSecs,
    started_at: ctx.startedAtSecs,
    topology: { pools: c.pools.length, models: c.lanes.length, providers: c.providers.length },
    config_persistence: false,
    config_version: ctx.config.version,
    safe_mode: ctx.config.safeMode,
    workers: ctx.workers.liveCount(),
  };
}

async function route(ctx: AdminContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  if (!url.pathname.startsWith(ADMIN_PREFIX)) return sendError(res, 404, 'not_found', 'no such admin path');
  if (ctx.adminToken !== null && !tokenMatches(ctx.adminToken, presentedToken(req))) {
    return sendError(res, 401, 'unauthorized', 'missing or invalid admin credential');
  }
  const path = url.pathname.slice(ADMIN_PREFIX.length);
  const method = req.method ?? 'GET';
  const allow = (allowed: string): boolean => {
    if (method === allowed) return true;
    sendError(res, 405, 'method_not_allowed', `use ${allowed}`, { allow: allowed });
    return false;
  };
  switch (path) {
    case '/info':
      if (allow('GET')) send(res, 200, infoView(ctx));
      return;
    case '/config/apply': {
      if (!allow('POST')) return;
      if (ctx.config.locked()) return sendError(res, 403, 'forbidden', 'the config is locked (config.locked: true): edit the file and POST /config/reload');
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return sendError(res, 400, 'invalid_request', `malformed body: ${(err as Error).message}`);
      }
      const document = (body as { config?: unknown } | undefined)?.config;
      if (document === undefined || document === null || typeof document !== 'object') {
        return sendError(res, 400, 'invalid_request', 'the body must be {"config": <full deployment config>}');
      }
      const outcome = await ctx.config.applyDocument(ctx.workers, document);
      if (!outcome.applied) return sendError(res, 400, 'invalid_request', outcome.errors.join('; '));
      return send(res, 200, { applied: true, config_version: outcome.version, note: 'live on every worker; not written to disk' });
    }
    case '/config/reload': {
      if (!allow('POST')) return;
      const outcome = await ctx.config.reload(ctx.workers);
      if (!outcome.applied) return sendError(res, 400, 'invalid_request', outcome.errors.join('; '));
      return send(res, 200, { reloaded: true, config_version: outcome.version });
    }
    default:
      return sendError(res, 404, 'not_found', 'no such admin path');
  }
}

export function startAdminServer(ctx: AdminContext, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    route(ctx, req, res).catch((err: Error) => {
      ctx.log.error({ err: err.message }, 'admin request failed');
      if (!res.headersSent) sendError(res, 500, 'internal', 'internal error');
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
