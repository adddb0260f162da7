// Paging of the governance lists (API-DECISIONS "Paging"): `limit` 1..1000 (default 100) and
// an opaque `cursor` holding the sort key of the last item served, so a walk yields every item
// once even while items are added.
import { AdminError } from '../admin/route.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export function pageOf<T>(sorted: readonly T[], query: URLSearchParams, sortKey: (item: T) => string): { items: T[]; next_cursor: string | null } {
  const limitText = query.get('limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    limit = Number(limitText);
    if (!/^[0-9]+$/.test(limitText) || !(limit >= 1 && limit <= MAX_LIMIT)) throw new AdminError(400, 'invalid_request', `limit must be an integer 1..${MAX_LIMIT}`);
  }
  const cursor = query.get('cursor');
  let after: string | null = null;
  if (cursor !== null) {
    try {
      const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
      if (typeof decoded !== 'string') throw new Error('not a cursor');
      after = decoded;
    } catch {
      throw new AdminError(400, 'invalid_request', 'cursor does not decode; pass a next_cursor from a previous page');
    }
  }
  let start = 0;
  if (after !== null) {
    while (start < sorted.length && sortKey(sorted[start]!) <= after) start++;
  }
  const items = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  const next = more ? Buffer.from(JSON.stringify(sortKey(items[items.length - 1]!))).toString('base64url') : null;
  return { items, next_cursor: next };
}
