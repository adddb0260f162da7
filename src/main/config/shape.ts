// Defensive readers for checks that run on a config which may have failed its schema: each
// check looks only at entries whose shape it understands, so one bad entry does not hide the
// errors of the others.
import { isPlainObject } from '../../shared/config/schema-walk.js';

export { isPlainObject };

export function entriesOf(value: unknown): Array<[string, Record<string, unknown>]> {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, Record<string, unknown>] => isPlainObject(entry[1]));
}

export function stringsOf(value: unknown): Array<[number, string]> {
  if (!Array.isArray(value)) return [];
  return value.map((item, index) => [index, item] as [number, unknown]).filter((entry): entry is [number, string] => typeof entry[1] === 'string');
}

export function field(value: unknown, ...keys: string[]): unknown {
  let node = value;
  for (const key of keys) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

export function knownList(names: Iterable<string>): string {
  const list = [...names];
  if (list.length === 0) return 'none are defined';
  return list.length <= 12 ? `known: ${list.join(', ')}` : `${list.length} are defined`;
}
