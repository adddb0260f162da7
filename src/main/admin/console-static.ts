// GET /console/: the operator's web console (issue 49), static files built by
// scripts/build-console.mjs into dist/console/. Only the files of that build are served (a
// fixed list, no path from the URL reaches the file system), each with a strict CSP (no
// inline script, connections to this origin only), X-Frame-Options: DENY and no caching.
// The page holds the admin token in memory only and sends it as `x-admin-token` on every
// call: no cookie, so no request a foreign page makes carries any authority (no CSRF).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

const CONSOLE_PREFIX = '/console/';
const CONSOLE_DIR = new URL('../../../console/', import.meta.url);
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
const SAFE_HEADERS = {
  'content-security-policy': CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

// Read once on first use: the files change only with a rebuild, which restarts the process.
const loaded = new Map<string, Buffer | null>();

function file(name: string): Buffer | null {
  if (!loaded.has(name)) {
    try {
      loaded.set(name, readFileSync(new URL(name, CONSOLE_DIR)));
    } catch {
      loaded.set(name, null);
    }
  }
  return loaded.get(name) ?? null;
}

function reply(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SAFE_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
  // HEAD: the same headers (node writes no body for it whatever end() is given).
  res.end(body);
}

/** True when the request was the console's (answered here); false leaves it to the admin API. */
export function serveConsole(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  if (pathname === '/console') {
    reply(res, 308, 'text/plain; charset=utf-8', 'the console is at /console/\n', { location: CONSOLE_PREFIX });
    return true;
  }
  if (!pathname.startsWith(CONSOLE_PREFIX)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    reply(res, 405, 'text/plain; charset=utf-8', 'the console is read with GET\n', { allow: 'GET, HEAD' });
    return true;
  }
  const name = pathname.slice(CONSOLE_PREFIX.length) || 'index.html';
  const type = FILES[name];
  const body = type === undefined ? null : file(name);
  if (type === undefined || body === null) {
    reply(res, 404, 'text/plain; charset=utf-8', body === null && type !== undefined ? 'the console is not built (npm run build)\n' : 'no such console file\n');
    return true;
  }
  reply(res, 200, type, body);
  return true;
}
