// The paging every admin list uses (API-DECISIONS.md): `limit` (default 100, at most 1000;
// 0, negative, non-integer or above the maximum: 400) and an opaque `cursor` taken from a
// previous `next_cursor` (one that does not decode: 400). Items are ordered by a stable
// string key; the cursor holds the last key served, so walking every page yields each item
// exactly once even when items are added meanwhile.
import { Type } from '@sinclair/typebox';
import { AdminError } from './route.js';

export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 1000;

/** The query schema of a paged list (both optional; checked by pageOf with the messages above). */
export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ description: `Items per page, 1..${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}).` })),
    cursor: Type.Optional(Type.String({ description: 'Opaque cursor from a previous page\'s next_cursor.' })),
  },
  { additionalProperties: true },
);

/** The page envelope of `items`' schema. */
export function pageSchema<T extends Parameters<typeof Type.Array>[0]>(item: T) {
  return Type.Object({ items: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) });
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

const CURSOR_VERSION = 1;

function encodeCursor(afterKey: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, after: afterKey }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; after?: unknown };
    if (parsed.v === CURSOR_VERSION && typeof parsed.after === 'string') return parsed.after;
  } catch {
    // falls through to the refusal below
  }
  throw new AdminError(400, 'invalid_request', 'cursor is not a cursor this list gave out');
}

/** The page limit of a query; 400 when it is not an integer in 1..1000. */
export function pageLimit(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return PAGE_LIMIT_DEFAULT;
  const limit = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    throw new AdminError(400, 'invalid_request', `limit must be an integer in 1..${PAGE_LIMIT_MAX}, got "${raw}"`);
  }
  return limit;
}

/**
 * One page of `items` ordered by `keyOf` (keys must be unique). `items` need not be sorted.
 */
export function pageOf<T>(items: readonly T[], keyOf: (item: T) => string, query: URLSearchParams): Page<T> {
  const limit = pageLimit(query);
  const cursor = query.get('cursor');
  const after = cursor === null || cursor === '' ? null : decodeCursor(cursor);
  const sorted = items.map((item) => ({ key: keyOf(item), item })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let start = 0;
  if (after !== null) while (start < sorted.length && sorted[start]!.key <= after) start++;
  const slice = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  return { items: slice.map((s) => s.item), next_cursor: more ? encodeCursor(slice[slice.length - 1]!.key) : null };
}
