// A request body's few top-level members, read from its bytes without JSON.parse. A same-
// protocol request needs only its model, its stream flag and a stream option before its bytes go
// upstream as they came, yet JSON.parse built the whole tree (every message, every string, every
// key internalised): about 0.95 µs of scenario 1's request, the largest single cost the gateway
// adds (docs/decisions.md, "A request's top-level members without JSON.parse"). Here one pass
// over the bytes checks that they are JSON exactly as `JSON.parse(bytes.toString('utf8'))` would
// accept them (RFC 8259; a byte of 0x80 or more only inside a string, where the UTF-8 decode
// would keep it or make it U+FFFD, both fine there) and notes where each top-level member sits;
// only the members asked for are made values. The caller parses the whole body later only
// when something needs more (a translation, a hook, a request log).
import type { Buffer } from 'node:buffer';
import type { JsonObject } from './json-field.js';

/** The bytes are not JSON (what JSON.parse would throw on). */
export const TOP_LEVEL_NOT_JSON = 1;
/** JSON, but not an object. */
export const TOP_LEVEL_NOT_OBJECT = 2;
/** Nested deeper than this reader keeps track of: JSON.parse must decide. */
export const TOP_LEVEL_UNDECIDED = 3;

/** Arrays and objects open at once, at most (a chat body nests a few levels). */
const MAX_DEPTH = 512;
const IN_OBJECT = 1;
const IN_ARRAY = 2;
/** What encloses each open level (one per thread: a worker reads one body at a time). */
const enclosing = new Uint8Array(MAX_DEPTH);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The characters JSON allows after a backslash, `u` aside. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number, n: number): number {
  while (i < n && isSpace(b[i]!)) i++;
  return i;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** `i` at an opening quote: the index past the closing one, or -1 when the string is not JSON. */
function skipString(b: Buffer, i: number, n: number): number {
  i++;
  for (;;) {
    let c = 0;
    while (i < n && (c = b[i]!) !== QUOTE && c !== BACKSLASH && c >= 0x20) i++;
    if (i >= n) return -1;
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return -1; // a raw control character
    const e = b[i + 1];
    if (e === undefined) return -1;
    if (SIMPLE_ESCAPE[e] === 1) i += 2;
    else if (e === 0x75 && i + 5 < n && HEX[b[i + 2]!] === 1 && HEX[b[i + 3]!] === 1 && HEX[b[i + 4]!] === 1 && HEX[b[i + 5]!] === 1) i += 6;
    else return -1;
  }
}

/** `i` at a number's first byte: the index past it, or -1 (RFC 8259: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?). */
function skipNumber(b: Buffer, i: number): number {
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i]) && b[i] !== 0x30) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === 0x2e) {
    i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** `i` at a `t`, `f` or `n`: the index past `true`, `false` or `null`, or -1. */
function skipLiteral(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x74) return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 ? i + 4 : -1;
  if (c === 0x66) return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 ? i + 5 : -1;
  return b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c ? i + 4 : -1;
}

/**
 * The last string without escapes made by valueAt, and its bytes: a caller's model is the same
 * request after request, and comparing a few bytes costs less than decoding them.
 */
const MEMO_MAX_BYTES = 128;
const memoBytes = new Uint8Array(MEMO_MAX_BYTES);
let memoLength = -1;
let memoValue = '';

/** The string of the bytes [start, end), which hold no escape. */
function plainString(b: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length === memoLength) {
    let same = true;
    for (let i = 0; i < length; i++) {
      if (b[start + i] !== memoBytes[i]) {
        same = false;
        break;
      }
    }
    if (same) return memoValue;
  }
  const value = b.toString('utf8', start, end);
  if (length <= MEMO_MAX_BYTES) {
    memoBytes.set(b.subarray(start, end));
    memoLength = length;
    memoValue = value;
  }
  return value;
}

/** Whether [start, end) is a string (quotes included) with no escape. */
function isPlainString(b: Buffer, start: number, end: number): boolean {
  if (b[start] !== QUOTE) return false;
  for (let i = start + 1; i < end - 1; i++) if (b[i] === BACKSLASH) return false;
  return true;
}

/** The value JSON.parse makes of the bytes [start, end), which hold one valid JSON value. */
function valueAt(b: Buffer, start: number, end: number): unknown {
  const first = b[start];
  if (first === QUOTE) {
    const close = end - 1;
    let plain = true;
    for (let i = start + 1; i < close; i++) {
      if (b[i] === BACKSLASH) {
        plain = false;
        break;
      }
    }
    if (plain) return plainString(b, start + 1, close);
  } else if (first === 0x74 && end - start === 4) return true;
  else if (first === 0x66 && end - start === 5) return false;
  else if (first === 0x6e && end - start === 4) return null;
  return JSON.parse(b.toString('utf8', start, end));
}

/** Where a string value sits in the body's bytes: [start, end) inside its quotes. */
export interface ValueSpan {
  /** -1: not known (see readTopLevelMembers). */
  start: number;
  end: number;
}

/** Whether the key string at [start, end) (quotes included) spells `key`. */
function keyIs(b: Buffer, start: number, end: number, key: string): boolean {
  const length = end - start - 2;
  let escaped = false;
  if (length === key.length) {
    let same = true;
    for (let i = 0; i < length; i++) {
      const c = b[start + 1 + i]!;
      if (c === BACKSLASH) escaped = true;
      if (c !== key.charCodeAt(i)) same = false;
    }
    if (same) return true;
    if (!escaped) return false;
  } else if (length < key.length) return false;
  else {
    for (let i = start + 1; i < end - 1; i++) if (b[i] === BACKSLASH) escaped = true;
    if (!escaped) return false;
  }
  return JSON.parse(b.toString('utf8', start, end)) === key;
}

/** Index of the member of `keys` the key at [start, end) spells, or -1. */
function keyIndex(b: Buffer, start: number, end: number, keys: readonly string[]): number {
  for (let k = 0; k < keys.length; k++) if (keyIs(b, start, end, keys[k]!)) return k;
  return -1;
}

/**
 * Checks that `bytes` are one JSON value as JSON.parse would accept them (after a UTF-8 decode)
 * and, when it is an object, returns an object holding those of its top-level members named in
 * `keys`, with the values JSON.parse would give them (the last of duplicates, as JSON.parse
 * keeps). Else TOP_LEVEL_NOT_JSON, TOP_LEVEL_NOT_OBJECT, or TOP_LEVEL_UNDECIDED when it nests
 * too deep to tell here. Iterative: no nesting reaches the call stack. `firstSpan`, when given,
 * gets where the value of `keys[0]` sits when the object has that member once, spelt without
 * an escape, with a string value without one (so its bytes can be replaced in place); else
 * start -1.
 */
export function readTopLevelMembers(bytes: Buffer, keys: readonly string[], firstSpan: ValueSpan | null = null): JsonObject | number {
  const b = bytes;
  const n = b.length;
  let i = skipSpace(b, 0, n);
  if (b[i] !== OPEN_BRACE) {
    const end = skipValue(b, i, n);
    if (end === -2) return TOP_LEVEL_UNDECIDED;
    return end >= 0 && skipSpace(b, end, n) === n ? TOP_LEVEL_NOT_OBJECT : TOP_LEVEL_NOT_JSON;
  }
  const members: JsonObject = {};
  if (firstSpan !== null) firstSpan.start = -1;
  let firstSeen = false;
  i = skipSpace(b, i + 1, n);
  if (b[i] === CLOSE_BRACE) return skipSpace(b, i + 1, n) === n ? members : TOP_LEVEL_NOT_JSON;
  for (;;) {
    if (b[i] !== QUOTE) return TOP_LEVEL_NOT_JSON;
    const keyStart = i;
    i = skipString(b, i, n);
    if (i < 0) return TOP_LEVEL_NOT_JSON;
    const keyEnd = i;
    i = skipSpace(b, i, n);
    if (b[i] !== COLON) return TOP_LEVEL_NOT_JSON;
    const valueStart = skipSpace(b, i + 1, n);
    const valueEnd = skipValue(b, valueStart, n);
    if (valueEnd < 0) return valueEnd === -2 ? TOP_LEVEL_UNDECIDED : TOP_LEVEL_NOT_JSON;
    if (keys.length > 0) {
      const k = keyIndex(b, keyStart, keyEnd, keys);
      if (k >= 0) members[keys[k]!] = valueAt(b, valueStart, valueEnd);
      if (k === 0 && firstSpan !== null) {
        firstSpan.start = !firstSeen && isPlainString(b, keyStart, keyEnd) && isPlainString(b, valueStart, valueEnd) ? valueStart + 1 : -1;
        firstSpan.end = valueEnd - 1;
        firstSeen = true;
      }
    }
    i = skipSpace(b, valueEnd, n);
    const c = b[i];
    if (c === CLOSE_BRACE) return skipSpace(b, i + 1, n) === n ? members : TOP_LEVEL_NOT_JSON;
    if (c !== COMMA) return TOP_LEVEL_NOT_JSON;
    i = skipSpace(b, i + 1, n);
  }
}

/**
 * `i` at a value's first byte (or past the end): the index past the value; -1 when it is not
 * JSON, -2 when it nests deeper than MAX_DEPTH.
 */
function skipValue(b: Buffer, i: number, n: number): number {
  let depth = 0;
  for (;;) {
    // A value starts at i.
    if (i >= n) return -1;
    const c = b[i]!;
    if (c === QUOTE) i = skipString(b, i, n);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const object = c === OPEN_BRACE;
      i = skipSpace(b, i + 1, n);
      if (b[i] === (object ? CLOSE_BRACE : CLOSE_BRACKET)) i++;
      else {
        if (depth === MAX_DEPTH) return -2;
        enclosing[depth++] = object ? IN_OBJECT : IN_ARRAY;
        if (object) {
          i = memberValueStart(b, i, n);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) i = skipLiteral(b, i);
    else i = skipNumber(b, i);
    if (i < 0) return -1;
    // After a value: close what it ends, then the next element or member, or done.
    for (;;) {
      if (depth === 0) return i;
      i = skipSpace(b, i, n);
      const after = b[i];
      const inObject = enclosing[depth - 1] === IN_OBJECT;
      if (after === COMMA) {
        i = skipSpace(b, i + 1, n);
        if (inObject) {
          i = memberValueStart(b, i, n);
          if (i < 0) return -1;
        }
        break;
      }
      if (after !== (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) return -1;
      depth--;
      i++;
    }
  }
}

/** `i` at a member's key: the index of its value's first byte, or -1. */
function memberValueStart(b: Buffer, i: number, n: number): number {
  if (b[i] !== QUOTE) return -1;
  i = skipString(b, i, n);
  if (i < 0) return -1;
  i = skipSpace(b, i, n);
  if (b[i] !== COLON) return -1;
  return skipSpace(b, i + 1, n);
}
