// A same-protocol request body edited over its bytes. Its text form (json-field.ts,
// rewriteTopLevelString) needs the body decoded to a string, and the spliced string flattened
// and encoded to bytes again for the socket: three copies of the body and about 0.75 µs of
// scenario 1's request, where one copy does (docs/decisions.md, "A request's top-level members
// without JSON.parse"). The same rule as the text form's known-valid scan: the body is valid
// JSON (readTopLevelMembers checked it), so a top-level member is written as the literal
// `"key"` unless an escape spells it, and for a plain key only `\u` can; with no `\u` in the
// body, a literal found once is that member. Anything else is left to the text form (null).
import { Buffer } from 'node:buffer';
import { isJsonObject } from './json-field.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const UNICODE_ESCAPE = Buffer.from('\\u');

/** `key"` as bytes, for the few plain keys edited here, made once each. */
const keyTails = new Map<string, Buffer>();
function keyTail(key: string): Buffer {
  let tail = keyTails.get(key);
  if (tail === undefined) keyTails.set(key, (tail = Buffer.from(`${key}"`)));
  return tail;
}

/** The last value set and its bytes, bare and as a JSON literal: a lane's upstream model is the same every time. */
let lastValue = '';
let lastBare = Buffer.alloc(0);
let lastLiteral = Buffer.from('""');
function remember(value: string): void {
  if (value === lastValue) return;
  lastValue = value;
  lastBare = Buffer.from(value);
  lastLiteral = Buffer.from(JSON.stringify(value));
}

function skipSpace(b: Buffer, i: number): number {
  for (;;) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** Where the literal `"key"` starts from `from`, or -1 (searched as `key"`, its quote checked). */
function literalKeyAt(b: Buffer, tail: Buffer, from: number): number {
  for (let at = b.indexOf(tail, from + 1); at !== -1; at = b.indexOf(tail, at + 1)) {
    if (b[at - 1] === QUOTE) return at - 1;
  }
  return -1;
}

/**
 * `bytes` (a valid JSON object; `head` holds at least its member `key` when it has one) with
 * the top-level member `key` set to the string `value`: `bytes` itself when it already holds
 * it, else a new Buffer with only that value's bytes changed. Null when the text form must do
 * it: the member is absent (it is inserted there), repeated, not a plain string, or `\u` is
 * somewhere in the body.
 */
export function setTopLevelStringBytes(bytes: Buffer, key: string, value: string, head: unknown): Buffer | null {
  if (!isJsonObject(head) || !Object.hasOwn(head, key)) return null;
  if (bytes.indexOf(UNICODE_ESCAPE) !== -1) return null;
  const tail = keyTail(key);
  const at = literalKeyAt(bytes, tail, 0);
  if (at === -1 || literalKeyAt(bytes, tail, at + tail.length) !== -1) return null;
  const colon = skipSpace(bytes, at + 1 + tail.length);
  if (bytes[colon] !== COLON) return null;
  const start = skipSpace(bytes, colon + 1);
  if (bytes[start] !== QUOTE) return null;
  const close = bytes.indexOf(QUOTE, start + 1);
  if (close === -1) return null;
  for (let i = start + 1; i < close; i++) if (bytes[i] === BACKSLASH) return null;
  remember(value);
  const bare = lastBare;
  if (close - start - 1 === bare.length && bytes.compare(bare, 0, bare.length, start + 1, close) === 0) return bytes;
  const literal = lastLiteral;
  const end = close + 1;
  const out = Buffer.allocUnsafe(start + literal.length + bytes.length - end);
  bytes.copy(out, 0, 0, start);
  literal.copy(out, start);
  bytes.copy(out, start + literal.length, end);
  return out;
}
