// Small scanners over JSON text for the fast paths: each accepts only a strict, valid subset
// and returns -1 for anything else (the caller then falls back to JSON.parse), so a frame is
// never read differently from how the full decoder would read it.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * End (index after the closing quote) of a JSON string starting at `at` (on its opening quote)
 * that has no escapes and no control characters; -1 otherwise.
 */
export function plainStringEnd(s: string, at: number): number {
  if (s.charCodeAt(at) !== QUOTE) return -1;
  const close = s.indexOf('"', at + 1);
  if (close < 0) return -1;
  for (let i = at + 1; i < close; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === BACKSLASH) return -1;
  }
  return close + 1;
}

/** End of a non-negative integer without leading zeros, or of `null`, at `at`; -1 otherwise. */
export function plainScalarEnd(s: string, at: number): number {
  const c = s.charCodeAt(at);
  if (c === 0x6e) return s.startsWith('null', at) ? at + 4 : -1; // n
  if (c === 0x30) return at + 1; // a lone 0
  if (!(c >= 0x31 && c <= 0x39)) return -1; // NaN past the end too
  let i = at + 1;
  while (i < s.length) {
    const d = s.charCodeAt(i);
    if (d < 0x30 || d > 0x39) break;
    i++;
  }
  return i;
}

/**
 * Walks the leading members of an object, `{"k":v,"k":v,` up to (not including) the member
 * named `stopKey`, accepting only keys for which `allowed(key)` holds and values that are
 * plain strings, integers or null. Returns the index of `"stopKey"`, or -1.
 */
export function leadingMembersEnd(s: string, allowed: (key: string) => boolean, stopKey: string): number {
  if (s.charCodeAt(0) !== OPEN_BRACE) return -1;
  let i = 1;
  for (;;) {
    const keyEnd = plainStringEnd(s, i);
    if (keyEnd < 0) return -1;
    const key = s.slice(i + 1, keyEnd - 1);
    if (key === stopKey) return i;
    if (!allowed(key) || s.charCodeAt(keyEnd) !== COLON) return -1;
    const v = keyEnd + 1;
    const valueEnd = s.charCodeAt(v) === QUOTE ? plainStringEnd(s, v) : plainScalarEnd(s, v);
    if (valueEnd < 0 || s.charCodeAt(valueEnd) !== COMMA) return -1;
    i = valueEnd + 1;
  }
}

/**
 * End of a JSON string literal at `at` (index after its closing quote), negated and minus one
 * (`-end - 1`) when it holds an escape (the caller reads it with JSON.parse, which checks the
 * escapes); 0 when it is not closed or holds a raw control character.
 */
export function stringLiteralEnd(s: string, at: number): number {
  if (s.charCodeAt(at) !== QUOTE) return 0;
  let escaped = false;
  for (let i = at + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return escaped ? -(i + 1) - 1 : i + 1;
    if (c === BACKSLASH) {
      escaped = true;
      i++;
    } else if (c < 0x20) return 0;
  }
  return 0;
}

/**
 * Index of the first character at or after `at` that is not a space or a tab (the JSON
 * whitespace a one-line SSE event can hold: a line feed or carriage return ends the line).
 */
export function spaceEnd(s: string, at: number): number {
  for (;;) {
    const c = s.charCodeAt(at);
    if (c !== SPACE && c !== TAB) return at;
    at++;
  }
}

/**
 * End (index after its closing bracket) of the object or array at `at`, found by counting
 * brackets outside strings, before `end`; -1 when it does not close there. It does not check
 * the JSON in between: the caller reads the span with JSON.parse, which does.
 */
export function compositeEnd(s: string, at: number, end: number): number {
  const first = s.charCodeAt(at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return -1;
  let depth = 0;
  for (let i = at; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const found = stringLiteralEnd(s, i);
      if (found === 0) return -1;
      i = (found < 0 ? -found - 1 : found) - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * `s` holds `text` at `at`, compared as one slice: one memcmp in V8's runtime, about 30 ns for
 * 96 characters, where `startsWith` goes character by character (about 100) and a JavaScript
 * loop costs more still (about 220).
 */
export function holdsAt(s: string, at: number, text: string): boolean {
  return s.slice(at, at + text.length) === text;
}

/** A string a fast path read out of the upstream's text. */
export interface StringRead {
  text: string;
  /** Its JSON literal when it held no escape (then byte for byte what JSON.stringify writes), else undefined. */
  literal: string | undefined;
}

/**
 * Reads the JSON string literal `s[start, end)` (its end as `stringLiteralEnd` found it,
 * `escaped` when that was negative) into `out`; false on a bad escape (the full decoder then
 * reports the frame). A literal with escapes is not kept: `\u00e9` and `é` read the same but
 * are written differently.
 */
export function readStringLiteral(s: string, start: number, end: number, escaped: boolean, out: StringRead): boolean {
  if (!escaped) {
    out.literal = s.slice(start, end);
    out.text = s.slice(start + 1, end - 1);
    return true;
  }
  try {
    out.text = JSON.parse(s.slice(start, end)) as string;
  } catch {
    return false;
  }
  out.literal = undefined;
  return true;
}
