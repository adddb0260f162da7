// JSON fields, two ways:
// 1. In raw request text, for passthrough: find a top-level field's value span with a small
//    scanner (nesting depth + string escapes) and splice only that span, so every other byte
//    the caller sent (unknown fields, key order, whitespace, number spellings) is kept.
// 2. In a parsed body, for decoders: typed readers that throw GatewayError('invalid_request')
//    naming the offending field, so a bad body gets a clear 400 and never a crash.
import { GatewayError } from '../../errors.js';
import { invalidRequest } from '../invalid-request.js';

// ---------------------------------------------------------------------------------------------
// Raw text
// ---------------------------------------------------------------------------------------------

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Where one top-level `"key": value` sits in the raw text (value span is [valueStart, valueEnd)). */
interface FieldSpan {
  valueStart: number;
  valueEnd: number;
}

/** Start of a top-level object's members: the index just after `{`. */
interface ObjectScan {
  bodyStart: number;
  spans: FieldSpan[];
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(raw: string, i: number): number {
  while (i < raw.length && isSpace(raw.charCodeAt(i))) i++;
  return i;
}

function malformed(): GatewayError {
  return new GatewayError('invalid_json', 'request body is not a well-formed JSON object');
}

/**
 * `i` is at an opening quote; returns the index just past the closing quote. Jumps from quote
 * to quote with indexOf (string contents are most of a body's bytes) and counts the
 * backslashes before each one: an odd count means the quote is escaped.
 */
function skipString(raw: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = raw.indexOf('"', from);
    if (quote === -1) throw malformed();
    let backslashes = 0;
    for (let b = quote - 1; b >= from && raw.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if ((backslashes & 1) === 0) return quote + 1;
    from = quote + 1;
  }
}

/** `i` is at the first character of a value; returns the index just past it. Iterative, so deep nesting cannot overflow the stack. */
function skipValue(raw: string, i: number): number {
  const first = raw.charCodeAt(i);
  if (first === QUOTE) return skipString(raw, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    while (i < raw.length) {
      const c = raw.charCodeAt(i);
      if (c === QUOTE) {
        i = skipString(raw, i);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw malformed();
  }
  // number, true, false, null: runs until a delimiter
  const start = i;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
    i++;
  }
  if (i === start) throw malformed();
  return i;
}

/** The key text between quotes at [start, end), unescaped only when it holds an escape. */
function keyText(raw: string, start: number, end: number): string {
  const inner = raw.slice(start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(raw.slice(start, end)) as string) : inner;
}

/** Whether the key string at [start, end) (quotes included) is `key`, without slicing the common case. */
function keyMatches(raw: string, start: number, end: number, key: string): boolean {
  const backslash = raw.indexOf('\\', start);
  if (backslash === -1 || backslash >= end) return end - start - 2 === key.length && raw.startsWith(key, start + 1);
  return keyText(raw, start, end) === key;
}

/** Every top-level occurrence of `key` (JSON allows duplicates; JSON.parse keeps the last). */
function scanTopLevel(raw: string, key: string): ObjectScan {
  let i = skipSpace(raw, 0);
  if (raw.charCodeAt(i) !== OPEN_BRACE) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const bodyStart = i + 1;
  const spans: FieldSpan[] = [];
  i = skipSpace(raw, bodyStart);
  if (raw.charCodeAt(i) === CLOSE_BRACE) return { bodyStart, spans };
  for (;;) {
    if (raw.charCodeAt(i) !== QUOTE) throw malformed();
    const keyStart = i;
    i = skipString(raw, i);
    const matches = keyMatches(raw, keyStart, i, key);
    i = skipSpace(raw, i);
    if (raw.charCodeAt(i) !== COLON) throw malformed();
    const valueStart = skipSpace(raw, i + 1);
    if (valueStart >= raw.length) throw malformed();
    const valueEnd = skipValue(raw, valueStart);
    if (matches) spans.push({ valueStart, valueEnd });
    i = skipSpace(raw, valueEnd);
    const c = raw.charCodeAt(i);
    if (c === CLOSE_BRACE) return { bodyStart, spans };
    if (c !== COMMA) throw malformed();
    i = skipSpace(raw, i + 1);
  }
}

/**
 * scanTopLevel's answer without walking the members, when `raw` is known to be the valid JSON
 * text `parsed` was read from (the request path parsed it first); null when this cannot tell.
 * Whether the key is a top-level member comes from `parsed` (the whole body, or an object of
 * some of its top-level members that has `key` when the body has it). If it is, its member's key is
 * written in `raw` as the literal `"key"` unless an escape spells it, and for the plain names
 * passed here only `\u` can; so with no `\u` anywhere, a literal found once is that member.
 */
function scanKnownValid(raw: string, key: string, parsed: unknown): ObjectScan | null {
  if (!isJsonObject(parsed)) return null;
  const bodyStart = skipSpace(raw, 0) + 1;
  if (!Object.hasOwn(parsed, key)) return { bodyStart, spans: [] };
  if (raw.indexOf('\\u') !== -1) return null;
  const tail = keyTail(key);
  const at = literalKeyAt(raw, tail, bodyStart);
  if (at === -1 || literalKeyAt(raw, tail, at + 1 + tail.length) !== -1) return null;
  const colon = skipSpace(raw, at + 1 + tail.length);
  if (raw.charCodeAt(colon) !== COLON) return null;
  const valueStart = skipSpace(raw, colon + 1);
  return { bodyStart, spans: [{ valueStart, valueEnd: skipValue(raw, valueStart) }] };
}

/**
 * Where the next literal `"key"` starts, from `from`; -1 when none. Searched as `key"` and its
 * opening quote checked: a search that starts with a quote stops at every quote of the text,
 * about four times slower over a chat body.
 */
function literalKeyAt(raw: string, tail: string, from: number): number {
  for (let at = raw.indexOf(tail, from + 1); at !== -1; at = raw.indexOf(tail, at + 1)) {
    if (raw.charCodeAt(at - 1) === QUOTE) return at - 1;
  }
  return -1;
}

/** `key"` for the few plain keys the passthrough rewrites, made once each. */
const keyTails = new Map<string, string>();
function keyTail(key: string): string {
  let tail = keyTails.get(key);
  if (tail === undefined) keyTails.set(key, (tail = `${key}"`));
  return tail;
}

/** The top-level spans of `key`: the short way when `parsed` is given (see scanKnownValid). */
function scanFor(raw: string, key: string, parsed: unknown): ObjectScan {
  return (parsed !== undefined ? scanKnownValid(raw, key, parsed) : null) ?? scanTopLevel(raw, key);
}

/**
 * Replace every top-level `key`'s value with `jsonValueText` (already valid JSON), or insert
 * `"key":value` as the first member when absent. Every other byte of `raw` is kept.
 * Every duplicate is rewritten so that no parser, first-wins or last-wins, sees the old value.
 * `parsed`: the object `raw` was parsed into, when it was (`raw` is then valid JSON and the
 * members are found without a scan); its top-level keys must be `raw`'s.
 */
export function setTopLevelField(raw: string, key: string, jsonValueText: string, parsed?: unknown): string {
  return setFieldIn(raw, scanFor(raw, key, parsed), key, jsonValueText);
}

function setFieldIn(raw: string, scan: ObjectScan, key: string, jsonValueText: string): string {
  const { bodyStart, spans } = scan;
  if (spans.length === 0) {
    const rest = skipSpace(raw, bodyStart);
    const sep = raw.charCodeAt(rest) === CLOSE_BRACE ? '' : ',';
    return `${raw.slice(0, bodyStart)}${JSON.stringify(key)}:${jsonValueText}${sep}${raw.slice(bodyStart)}`;
  }
  let out = '';
  let from = 0;
  for (const span of spans) {
    out += raw.slice(from, span.valueStart) + jsonValueText;
    from = span.valueEnd;
  }
  return out + raw.slice(from);
}

/**
 * Set the top-level string field `key` to `value`, keeping every other byte. Returns `raw`
 * itself when every occurrence already equals `value` (the common passthrough case).
 * `parsed`: as for setTopLevelField.
 */
export function rewriteTopLevelString(raw: string, key: string, value: string, parsed?: unknown): string {
  const scan = scanFor(raw, key, parsed);
  if (scan.spans.length > 0 && scan.spans.every((s) => isJsonStringEqual(raw, s, value))) return raw;
  return setFieldIn(raw, scan, key, stringLiteral(value));
}

/** The last value given and its JSON literal: a lane's upstream model is the same every time. */
let lastValue = '';
let lastLiteral = '""';
function stringLiteral(value: string): string {
  if (value !== lastValue) {
    lastLiteral = JSON.stringify(value);
    lastValue = value;
  }
  return lastLiteral;
}

function isJsonStringEqual(raw: string, span: FieldSpan, value: string): boolean {
  if (raw.charCodeAt(span.valueStart) !== QUOTE) return false;
  const inner = raw.slice(span.valueStart + 1, span.valueEnd - 1);
  if (!inner.includes('\\')) return inner === value;
  return JSON.parse(raw.slice(span.valueStart, span.valueEnd)) === value;
}

// ---------------------------------------------------------------------------------------------
// Parsed bodies
// ---------------------------------------------------------------------------------------------

export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `v` as an object, else a 400 naming `path`. */
export function expectObject(v: unknown, path: string): JsonObject {
  if (!isJsonObject(v)) throw invalidRequest(`${path} must be an object`);
  return v;
}

export function expectArray(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw invalidRequest(`${path} must be an array`);
  return v;
}

export function expectString(v: unknown, path: string): string {
  if (typeof v !== 'string') throw invalidRequest(`${path} must be a string`);
  return v;
}

/** Optional fields treat `null` as absent, as the vendor APIs do. */
export function optionalString(obj: JsonObject, key: string, path: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidRequest(`${path}.${key} must be a string`);
  return v;
}

export function optionalBoolean(obj: JsonObject, key: string, path: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalidRequest(`${path}.${key} must be a boolean`);
  return v;
}

/** A number within [min, max]; out-of-range values are rejected, never clamped. */
export function optionalNumber(obj: JsonObject, key: string, path: string, min: number, max: number): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidRequest(`${path}.${key} must be a number`);
  if (v < min || v > max) throw invalidRequest(`${path}.${key} must be between ${min} and ${max}, got ${v}`);
  return v;
}

/** An integer >= min; out-of-range values are rejected, never clamped. */
export function optionalInteger(obj: JsonObject, key: string, path: string, min: number): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidRequest(`${path}.${key} must be an integer`);
  if (v < min) throw invalidRequest(`${path}.${key} must be at least ${min}, got ${v}`);
  return v;
}

/** A count an upstream reported (usage): a non-negative integer, else 0. Upstream output is not the caller's fault, so this never throws. */
export function tokenCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** A number as JSON.stringify writes it (String's spelling for a finite number, else null): for usage templates. */
export function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * The JSON text of the top-level `key`'s value (the last one, as JSON.parse keeps), or
 * undefined when absent. Reads a large body's one field without parsing the rest.
 */
export function topLevelValueText(raw: string, key: string): string | undefined {
  const member = lastMemberValueText(raw, key);
  if (member !== null) return member;
  const { spans } = scanTopLevel(raw, key);
  const last = spans[spans.length - 1];
  return last === undefined ? undefined : raw.slice(last.valueStart, last.valueEnd);
}

/** `"key":` for the keys lastMemberValueText is asked about (a body's usage field: a handful). */
const plainKeys = new Map<string, string>();

/**
 * topLevelValueText's answer the short way, when the key's last plain spelling (`"key":`) is a
 * top-level member: found with one native search from the end, then only the members after it
 * are scanned, which is where a usage field sits (last, or before a few short fields). Null
 * when that cannot be shown (the full scan decides).
 *
 * Why the search cannot land inside a string of a valid body: a quote inside a string is
 * escaped, so a match whose quote has no backslash before it opens a string, and a string
 * followed by a colon is a key. The members after its value then end the object it belongs to
 * with the first unmatched `}`; only the top-level object's `}` is followed by nothing but
 * space. A later duplicate spelled another way (`"usage" :`, an escape) sends it to the full
 * scan, so the last occurrence still wins, as in JSON.parse.
 */
function lastMemberValueText(raw: string, key: string): string | null {
  return lastMemberSpan(raw, key, lastSpan) ? raw.slice(lastSpan.start, lastSpan.end) : null;
}
const lastSpan: ValueSpan = { keyStart: 0, start: 0, end: 0 };

/** Where a member sits in the text: its key's opening quote, and its value's span [start, end). */
export interface ValueSpan {
  keyStart: number;
  start: number;
  end: number;
}

/** lastMemberValueText's search, its answer in `span`: false when it cannot show the member. */
export function lastMemberSpan(raw: string, key: string, span: ValueSpan): boolean {
  let needle = plainKeys.get(key);
  if (needle === undefined) {
    needle = `${JSON.stringify(key)}:`;
    plainKeys.set(key, needle);
  }
  const at = raw.lastIndexOf(needle);
  if (at <= 0 || raw.charCodeAt(at - 1) === BACKSLASH) return false;
  const valueStart = skipSpace(raw, at + needle.length);
  if (valueStart >= raw.length) return false;
  const valueEnd = skipValue(raw, valueStart);
  let i = skipSpace(raw, valueEnd);
  for (;;) {
    const c = raw.charCodeAt(i);
    if (c === CLOSE_BRACE) {
      if (skipSpace(raw, i + 1) !== raw.length) return false;
      span.keyStart = at;
      span.start = valueStart;
      span.end = valueEnd;
      return true;
    }
    if (c !== COMMA) return false;
    i = skipSpace(raw, i + 1);
    if (raw.charCodeAt(i) !== QUOTE) return false;
    const keyStart = i;
    i = skipString(raw, i);
    if (keyMatches(raw, keyStart, i, key)) return false;
    i = skipSpace(raw, i);
    if (raw.charCodeAt(i) !== COLON) return false;
    i = skipSpace(raw, i + 1);
    if (i >= raw.length) return false;
    i = skipSpace(raw, skipValue(raw, i));
  }
}
