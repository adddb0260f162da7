// Reading an upstream response's raw headers (undici's onHeaders hands them over as they came:
// name and value Buffers in turn, names in the case the upstream wrote them).
import type { Buffer } from 'node:buffer';
import { util } from 'undici';

export type HeaderObject = Record<string, string | string[] | undefined>;

/**
 * The value of the header `lowerName` (lower case ASCII), as undici's parsed headers give it when
 * it is a string: '' when it is absent or repeated (undici makes a repeated header an array).
 */
export function rawHeader(raw: readonly Buffer[], lowerName: string): string {
  let found = -1;
  for (let i = 0; i < raw.length; i += 2) {
    if (!nameIs(raw[i]!, lowerName)) continue;
    if (found !== -1) return '';
    found = i + 1;
  }
  return found === -1 ? '' : raw[found]!.toString('latin1'); // as undici decodes a value
}

/** All of them as undici's parsed headers (for the error path, which relays them). */
export function headerObject(raw: readonly Buffer[]): HeaderObject {
  return util.parseHeaders(raw as Buffer[]) as HeaderObject;
}

function nameIs(name: Buffer, lowerName: string): boolean {
  const length = lowerName.length;
  if (name.length !== length) return false;
  for (let i = 0; i < length; i++) {
    // ASCII letters fold to lower case with 0x20; the names asked for have no other byte that would.
    if ((name[i]! | 0x20) !== lowerName.charCodeAt(i)) return false;
  }
  return true;
}
