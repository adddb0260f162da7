// What a request may cost before it is sent: the estimate admission reserves against every
// tokens and budget limit (docs/configuration.md, "Reservations"). It must be cheap and
// allocate nothing beyond what the request path already read: the body's bytes (always there)
// and a few top-level members (the same-protocol path reads only those; each protocol's
// estimator names the members its output cap lives in, see `members`).
//
// input tokens  = ceil((body bytes - binary payload bytes) / bytesPerToken)
//                 + binary parts x imageTokens
// output tokens = the request's own cap (max_tokens and its equivalents, times the choices it
//                 asks for), else the lane's max_output_tokens, else the group's
//                 default_output_reservation, else 0
//
// The whole body counts as text, JSON syntax and all: bytesPerToken is 3 (UTF-8 CJK text is
// about 3 bytes a token; English about 4 characters a token, so for it the estimate is high,
// the safe side). Binary payloads (base64 images, audio, files) are found by the members that
// carry them (a few native Buffer.indexOf scans per body), left out of the text and charged a
// fixed number of tokens each: the most the vendor's formula gives for one image.
import type { Buffer } from 'node:buffer';

/** One protocol's estimator (each protocol folder has a cost-estimate.ts). */
export interface CostEstimator {
  /** Top-level members the output cap is read from: the request path must read them too. */
  readonly members: readonly string[];
  /** Body bytes per input token. */
  readonly bytesPerToken: number;
  /** Tokens charged per image or other binary part. */
  readonly imageTokens: number;
  /** Bytes of this protocol's streamed answer per output token, for an aborted stream whose
   * upstream reported no usage (the estimate of what was relayed). */
  readonly streamBytesPerToken: number;
  /** The output cap the request sets (its members as read into `head`), or -1 for none. */
  outputCap(head: unknown): number;
  /** Binary payloads in the body: adds their bytes and their count to `scan`. */
  scanBinary(body: Buffer, scan: BinaryScan): void;
}

/** A scan's result, one object per thread reused for every request. */
export interface BinaryScan {
  bytes: number;
  parts: number;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;

/** A payload shorter than this is text that happens to sit in a binary-named member. */
const BINARY_MIN_BYTES = 1024;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index after the `:` that follows a member name ending at `i` (whitespace allowed), or -1. */
function afterColon(body: Buffer, i: number): number {
  while (isSpace(body[i])) i++;
  if (body[i] !== COLON) return -1;
  i++;
  while (isSpace(body[i])) i++;
  return i;
}

/** The quoted member name as bytes, made once per marker at module load. */
export function memberName(name: string): Buffer {
  return globalThis.Buffer.from(`"${name}"`);
}

/**
 * How many times the bytes hold `name` (a quoted member name, memberName) followed by a colon:
 * a member of that name at any depth. Inside a JSON string a quote is escaped, so a prompt
 * that mentions the name does not count.
 */
export function countMembers(body: Buffer, name: Buffer): number {
  let n = 0;
  for (let at = body.indexOf(name); at !== -1; at = body.indexOf(name, at + name.length)) {
    if (afterColon(body, at + name.length) !== -1) n++;
  }
  return n;
}

/** How many times the bytes hold `literal` (a quoted string such as `"input_image"`). */
export function countLiteral(body: Buffer, literal: Buffer): number {
  let n = 0;
  for (let at = body.indexOf(literal); at !== -1; at = body.indexOf(literal, at + literal.length)) n++;
  return n;
}

/** The end of the string whose contents start at `i` (the index of its closing quote), or -1. */
function stringEnd(body: Buffer, i: number): number {
  for (let q = body.indexOf(QUOTE, i); q !== -1; q = body.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    for (let b = q - 1; b >= i && body[b] === BACKSLASH; b--) backslashes++;
    if ((backslashes & 1) === 0) return q;
  }
  return -1;
}

/** Every string value of a member `name` at least BINARY_MIN_BYTES long: a binary payload. */
export function scanStringMembers(body: Buffer, name: Buffer, scan: BinaryScan): void {
  let from = 0;
  for (let at = body.indexOf(name, from); at !== -1; at = body.indexOf(name, from)) {
    from = at + name.length;
    const value = afterColon(body, from);
    if (value === -1 || body[value] !== QUOTE) continue;
    const end = stringEnd(body, value + 1);
    if (end === -1) return;
    if (end - value - 1 >= BINARY_MIN_BYTES) {
      scan.bytes += end - value - 1;
      scan.parts++;
    }
    from = end + 1;
  }
}

/** Every string in an array member `name` (Ollama's `images`): each a binary part. */
export function scanStringArrays(body: Buffer, name: Buffer, scan: BinaryScan): void {
  let from = 0;
  for (let at = body.indexOf(name, from); at !== -1; at = body.indexOf(name, from)) {
    from = at + name.length;
    let i = afterColon(body, from);
    if (i === -1 || body[i] !== OPEN_BRACKET) continue;
    i++;
    for (;;) {
      while (isSpace(body[i]) || body[i] === COMMA) i++;
      if (body[i] !== QUOTE) break;
      const end = stringEnd(body, i + 1);
      if (end === -1) return;
      scan.bytes += end - i - 1;
      scan.parts++;
      i = end + 1;
    }
    if (body[i] === CLOSE_BRACKET) from = i + 1;
  }
}

const DATA_URL = globalThis.Buffer.from(';base64,');

/** Every base64 data URL (`data:image/png;base64,...`): its payload, and one part each. */
export function scanDataUrls(body: Buffer, scan: BinaryScan): void {
  let from = 0;
  for (let at = body.indexOf(DATA_URL, from); at !== -1; at = body.indexOf(DATA_URL, from)) {
    const start = at + DATA_URL.length;
    const end = stringEnd(body, start);
    if (end === -1) return;
    scan.bytes += end - start;
    scan.parts++;
    from = end + 1;
  }
}

/** A member read into `head` as a positive integer, else -1. */
export function positiveInt(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : -1;
}

/** The value of member `name` of `head` when `head` is an object. */
export function memberOf(head: unknown, name: string): unknown {
  return head !== null && typeof head === 'object' ? (head as Record<string, unknown>)[name] : undefined;
}

/** An output cap times the choices asked for (n, candidateCount; absent or bad = 1). */
export function timesChoices(cap: number, choices: unknown): number {
  if (cap < 0) return -1;
  const n = positiveInt(choices);
  return n > 1 ? cap * n : cap;
}

/** The input tokens of a body: its text bytes over the ratio, plus the charge per binary part. */
export function inputTokens(bodyBytes: number, scan: BinaryScan, estimator: CostEstimator): number {
  const text = bodyBytes > scan.bytes ? bodyBytes - scan.bytes : 0;
  return Math.ceil(text / estimator.bytesPerToken) + scan.parts * estimator.imageTokens;
}
