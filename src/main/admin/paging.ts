// Paging of every admin list (API-DECISIONS: paging): `limit` (default 100, 1..1000) and an
// opaque `cursor` (base64url JSON of the position after the last item served); the page
// envelope `{ items, next_cursor }` with next_cursor null on the last page.
import { Buffer } from 'node:buffer';
import { Type, type TSchema } from '@sinclair/typebox';
import { AdminError } from './route.js';

const PAGE_LIMIT_DEFAULT = 100;
const PAGE_LIMIT_MAX = 1000;

/** The paging query fields, to spread into a route's query schema. */
export const PageQueryFields = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, description: `Page size (default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}).` }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, description: 'Opaque: the `next_cursor` of the previous page.' })),
};
export const PageQuery = Type.Object(PageQueryFields);

/** The page envelope of `item`. */
export function PageOf(item: TSchema, title: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Non-null when more items remain.' }),
    },
    { title },
  );
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** `limit` from a query the router already validated (1..1000), or the default. */
export function pageLimit(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null) return PAGE_LIMIT_DEFAULT;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    throw new AdminError(400, 'invalid_request', `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`);
  }
  return limit;
}

function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The decoded position, or undefined without a cursor; 400 for one that does not decode. */
function decodeCursor<T>(query: URLSearchParams, isPosition: (value: unknown) => value is T): T | undefined {
  const text = query.get('cursor');
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (isPosition(value)) return value;
  } catch {
    // falls through to the refusal
  }
  throw new AdminError(400, 'invalid_request', 'cursor is not a cursor this list gave out');
}

/** The fields of T that hold a number. */
type NumberField<T> = { [K in keyof T]: T[K] extends number ? K : never }[keyof T];

/**
 * A page of a list served newest first, positioned by a number field that falls down the list
 * (a sequence or a version): `read(limit, before)` answers at most `limit` items whose
 * `position` is below `before` (from the top when undefined) and whether more follow.
 */
export function pageBefore<T>(
  query: URLSearchParams,
  position: NumberField<T>,
  read: (limit: number, before: number | undefined) => { items: T[]; more: boolean },
): Page<T> {
  const limit = pageLimit(query);
  const cursor = decodeCursor(query, (v): v is { before: number } => typeof (v as { before?: unknown } | null)?.before === 'number');
  const { items, more } = read(limit, cursor?.before);
  return { items, next_cursor: more ? encodeCursor({ before: items[items.length - 1]![position] }) : null };
}

/**
 * A page of `items` already in the list's stable order, positioned by a string sort key
 * (name, or a zero-padded number): items after the cursor's key, at most `limit`.
 */
export function pageBySortKey<T>(items: T[], keyOf: (item: T) => string, query: URLSearchParams): Page<T> {
  const limit = pageLimit(query);
  const after = decodeCursor(query, (v): v is { after: string } => typeof v === 'object' && v !== null && typeof (v as { after: unknown }).after === 'string');
  const rest = after === undefined ? items : items.filter((item) => keyOf(item) > after.after);
  const page = rest.slice(0, limit);
  const next = rest.length > limit ? encodeCursor({ after: keyOf(page[page.length - 1]!) }) : null;
  return { items: page, next_cursor: next };
}
