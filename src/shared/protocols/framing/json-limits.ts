// The bound every request body is held to before anything parses it: how deep its arrays and
// objects nest, and how many object members and array elements it holds in all. JSON.parse has
// no such bound and its cost is not linear in the bytes: a 9.8 MB `[[[[...]]]]` held a worker for
// 10.5 s, a 4 MB one about 2 s, and 500,000 distinct keys in one object about 1 s (docs/decisions/
// 280-json-limits.md has the figures). This scan reads the bytes once and stops at the first byte
// past a limit, so the nested body is refused after `maxJsonDepth` bytes, in microseconds.
//
// It is a count over the structure, not a validator: outside strings it looks at brackets,
// braces and commas; a string is skipped with indexOf to its closing quote (native, and most of
// a body is strings). For valid JSON the counts are exact; for invalid JSON they are whatever
// they are, and JSON.parse (or the top-level reader) refuses the body afterwards anyway.

/** The two bounds (CompiledConfig.limits carries them under these names, so it can be passed as is). */
export interface JsonLimits {
  /** Deepest nesting of arrays and objects; the body's own value is depth 1. */
  readonly maxJsonDepth: number;
  /** Object members plus array elements, summed over the whole body. */
  readonly maxJsonMembers: number;
}

/** Within both limits. */
export const JSON_WITHIN_LIMITS = 0;
/** Nested deeper than maxJsonDepth. */
export const JSON_TOO_DEEP = 1;
/** More than maxJsonMembers members and elements. */
export const JSON_TOO_MANY_MEMBERS = 2;

export type JsonLimitVerdict = typeof JSON_WITHIN_LIMITS | typeof JSON_TOO_DEEP | typeof JSON_TOO_MANY_MEMBERS;

/** The defaults of advanced.max_json_depth and advanced.max_json_members. */
export const DEFAULT_MAX_JSON_DEPTH = 64;
export const DEFAULT_MAX_JSON_MEMBERS = 100_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const SPACE = 0x20;

/** Bytes of a string read one at a time before the rest is left to indexOf (a call costs what ~30 looks do). */
const INLINE_STRING_BYTES = 32;

/** The index just past the string whose contents start at `from`; the end when it never closes. */
function pastString(bytes: Uint8Array, from: number): number {
  const n = bytes.length;
  const inlineEnd = Math.min(n, from + INLINE_STRING_BYTES);
  let i = from;
  // Most strings are short keys and values: look byte by byte first.
  while (i < inlineEnd) {
    const c = bytes[i]!;
    if (c === QUOTE) return i + 1;
    i += c === BACKSLASH ? 2 : 1;
  }
  if (i >= n) return n;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, i);
    if (quote === -1) return n;
    // A quote after an odd run of backslashes is escaped: the string goes on.
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return quote + 1;
    i = quote + 1;
  }
}

/**
 * JSON_WITHIN_LIMITS, or the first limit `bytes` goes past (JSON_TOO_DEEP, JSON_TOO_MANY_MEMBERS),
 * found by one scan that stops there. Allocates nothing.
 */
export function checkJsonLimits(bytes: Uint8Array, limits: JsonLimits): JsonLimitVerdict {
  const maxDepth = limits.maxJsonDepth;
  const maxMembers = limits.maxJsonMembers;
  const n = bytes.length;
  let depth = 0;
  let members = 0;
  // Just after an opening bracket or brace: the next value (or key) is the container's first member.
  let expectFirst = false;
  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (c <= SPACE) {
      i++;
      continue;
    }
    if (c === QUOTE) {
      if (expectFirst) {
        expectFirst = false;
        if (++members > maxMembers) return JSON_TOO_MANY_MEMBERS;
      }
      i = pastString(bytes, i + 1);
      continue;
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (expectFirst && ++members > maxMembers) return JSON_TOO_MANY_MEMBERS;
      if (++depth > maxDepth) return JSON_TOO_DEEP;
      expectFirst = true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      expectFirst = false;
    } else if (c === COMMA) {
      // Every member but a container's first follows one comma of its own.
      expectFirst = false;
      if (++members > maxMembers) return JSON_TOO_MANY_MEMBERS;
    } else if (expectFirst && c !== COLON) {
      // A number, true, false or null opens the container.
      expectFirst = false;
      if (++members > maxMembers) return JSON_TOO_MANY_MEMBERS;
    }
    i++;
  }
  return JSON_WITHIN_LIMITS;
}

/** The refusal's text (400 `invalid_request` in the caller's protocol), naming the limit and its setting. */
export function jsonLimitMessage(verdict: JsonLimitVerdict, limits: JsonLimits): string {
  if (verdict === JSON_TOO_DEEP) return `the request body nests deeper than ${limits.maxJsonDepth} levels (advanced.max_json_depth)`;
  return `the request body holds more than ${limits.maxJsonMembers} object members and array elements (advanced.max_json_members)`;
}
