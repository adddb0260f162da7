// Which methods each known data-plane path takes, so that a known path asked with another
// method gets 405 with `Allow` (RFC 9110 15.5.6) instead of a 404. The direct routes
// (`/{provider}/{model}`, `/{model}`) match any path of one or two segments, so they make no
// path "known": a GET there is a 404.
import { ROUTES, STORED_RESPONSE_ROUTES } from './routes.js';
import { LISTING_ROUTES } from './listing/routes.js';

/** Paths answered to GET only (and /healthz to HEAD too). */
export const GET_PATHS: readonly string[] = ['/healthz', '/metrics', '/stats'];
const ALLOW_OF_GET_PATH: Readonly<Record<string, string>> = { '/healthz': 'GET, HEAD', '/metrics': 'GET', '/stats': 'GET' };

/** The model-listing GET paths without a parameter: a POST there would be taken by a direct route. */
export const LISTING_STATIC_PATHS: readonly string[] = LISTING_ROUTES.filter((r) => !r.pattern.includes(':')).map((r) => r.pattern);

interface KnownPath {
  pattern: RegExp;
  allow: string;
  /** Index in ROUTES (its protocol shapes the error), or -1. */
  routeIndex: number;
}

const KNOWN: readonly KnownPath[] = [
  // Gemini's model path takes GET (the model) and POST (`{model}:{action}`).
  { pattern: patternOf('/v1beta/models/:model'), allow: 'GET, POST', routeIndex: ROUTES.findIndex((r) => r.pattern === '/v1beta/models/:modelAction') },
  ...ROUTES.flatMap((route, routeIndex) =>
    route.kind !== 'direct' && route.kind !== 'direct-model' ? [{ pattern: patternOf(route.pattern), allow: 'POST', routeIndex }] : [],
  ),
  ...LISTING_ROUTES.map((route) => ({ pattern: patternOf(route.pattern), allow: 'GET', routeIndex: -1 })),
  // A stored response takes GET and DELETE, its input items GET.
  ...[...new Set(STORED_RESPONSE_ROUTES.map((r) => r.pattern))].map((pattern) => ({
    pattern: patternOf(pattern),
    allow: STORED_RESPONSE_ROUTES.filter((r) => r.pattern === pattern)
      .map((r) => (r.method === 'del' ? 'DELETE' : 'GET'))
      .join(', '),
    routeIndex: ROUTES.findIndex((r) => r.pattern === '/v1/responses'),
  })),
  { pattern: /^\/$/, allow: 'GET, HEAD', routeIndex: -1 },
  ...GET_PATHS.map((path) => ({ pattern: patternOf(path), allow: ALLOW_OF_GET_PATH[path] ?? 'GET', routeIndex: -1 })),
];

/** A uWS pattern (`:name` = one segment) as an anchored regular expression. */
function patternOf(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The methods `path` takes, when it is a known path; null for an unknown one. */
export function allowedMethods(path: string): { allow: string; routeIndex: number } | null {
  for (const known of KNOWN) if (known.pattern.test(path)) return { allow: known.allow, routeIndex: known.routeIndex };
  return null;
}
