// A request body's few top-level members, read from its bytes without JSON.parse. A same-
// protocol request needs only its model, its stream flag and a stream option before its bytes go
// upstream as they came, yet JSON.parse built the whole tree (every message, every string, every
// key internalised): about 0.95 µs of scenario 1's request, the largest single cost the gateway
// adds (docs/decisions/180-top-level-members-without-parse.md). Here one pass
// over the bytes, in WebAssembly (json-check.wat: string contents, most of a body, 16 bytes at
// a time), checks that they are JSON exactly as `JSON.parse(bytes.toString('utf8'))` would
// accept them (RFC 8259; a byte of 0x80 or more only inside a string, where the UTF-8 decode
// would keep it or make it U+FFFD, both fine there) and notes where each top-level member sits;
// only the members asked for are made values, here. The caller parses the whole body later
// only when something needs more (a translation, a hook, a request log). The same pass written
// in JavaScript cost about what JSON.parse did in the gateway (about 0.9 µs), for all that it
// made no objects: a byte at a time, its branches in a loop the rest of the request evicts.
import { Buffer } from 'node:buffer';
import type { JsonObject } from './json-field.js';
import type { JsonLimits } from './json-limits.js';
import { WASM_PAGE_BYTES, instantiate, type WasmMemory } from '../wasm-module.js';
import { storeMember } from './store-sites.js';

/** The bytes are not JSON (what JSON.parse would throw on). These three are json-check.wat's `read` codes. */
export const TOP_LEVEL_NOT_JSON = 1;
/** JSON, but not an object. */
export const TOP_LEVEL_NOT_OBJECT = 2;
/** Nested deeper than this reader keeps track of, or a top-level key spelt with an escape: JSON.parse must decide. */
export const TOP_LEVEL_UNDECIDED = 3;
/** Past one of the JSON limits asked for (which one: checkJsonLimits, framing/json-limits.ts). */
export const TOP_LEVEL_OVER_LIMIT = 4;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface CheckExports {
  memory: WasmMemory;
  read(n: number, keys: number, maxDepth: number, maxMembers: number): number;
}

/** json-check.wat's layout: the keys asked for (lengths, then 64 bytes each), what was found of them (three i32 each), the body. */
const KEY_LENGTHS_AT = 1024;
const KEY_BYTES_AT = 1040;
const KEY_MAX_BYTES = 64;
const KEYS_MAX = 8;
const FOUND_AT = 2048;
/** The marker looked for (8 bytes), and the i32 the module sets to 1 when the body holds it. */
const MARKER_AT = 2400;
const MARKER_BYTES = 8;
const MARKER_SEEN_AT = 2408;
const BODY_AT = 4096;
/** Bytes the module may read past the body (a 16-byte load that ends in it). */
const BODY_SLACK = 16;

/** The module, one instance per thread (its memory is the thread's scratch space), made on first use. */
class JsonCheck {
  private readonly exports: CheckExports;
  private bytes: Uint8Array;
  /** What `read` found of each key asked for: how many times it occurs, the last value's start and end. */
  found: Int32Array;
  /** The memory's size, kept here: reading it from the memory is a call into V8. */
  private capacity: number;
  /** The keys written into the module last (compared by identity: each codec keeps one list). */
  private keys: readonly string[] | null = null;
  /** The marker written into the module last; until one is, eight 0xff bytes (no UTF-8 text holds them). */
  private marker = '';

  constructor() {
    this.exports = instantiate<CheckExports>(new URL('./json-check.wasm', import.meta.url));
    const buffer = this.exports.memory.buffer;
    this.capacity = buffer.byteLength;
    this.bytes = new Uint8Array(buffer);
    this.found = new Int32Array(buffer, FOUND_AT, 3 * KEYS_MAX);
    this.bytes.fill(0xff, MARKER_AT, MARKER_AT + MARKER_BYTES);
  }

  /** json-check.wat's `read` of `body` for `keys`: 0 an object (`found` then holds the keys' spans), 1 not JSON, 2 not an object, 3 undecided, 4 over a limit. */
  read(body: Uint8Array, keys: readonly string[], limits: JsonLimits, marker: string): number {
    const need = BODY_AT + body.length + BODY_SLACK;
    if (need > this.capacity) {
      const memory = this.exports.memory;
      memory.grow(Math.ceil((need - this.capacity) / WASM_PAGE_BYTES));
      this.capacity = memory.buffer.byteLength;
      this.bytes = new Uint8Array(memory.buffer);
      this.found = new Int32Array(memory.buffer, FOUND_AT, 3 * KEYS_MAX);
    }
    if (keys !== this.keys) this.writeKeys(keys);
    if (marker !== this.marker) this.writeMarker(marker);
    this.bytes.set(body, BODY_AT);
    return this.exports.read(body.length, keys.length, Math.min(limits.maxJsonDepth, I32_MAX), Math.min(limits.maxJsonMembers, I32_MAX - 1));
  }

  /** Whether the body the last `read` took whole (an object) holds the marker. */
  sawMarker(): boolean {
    return this.bytes[MARKER_SEEN_AT] === 1;
  }

  /** '' looks for nothing (eight 0xff bytes). */
  private writeMarker(marker: string): void {
    if (marker === '') {
      this.bytes.fill(0xff, MARKER_AT, MARKER_AT + MARKER_BYTES);
      this.marker = marker;
      return;
    }
    const bytes = Buffer.from(marker);
    if (bytes.length !== MARKER_BYTES) throw new RangeError(`a marker is ${MARKER_BYTES} bytes: "${marker}" is not`);
    this.bytes.set(bytes, MARKER_AT);
    this.marker = marker;
  }

  /** Every key checked before any is written, so a refused list leaves the last one whole. */
  private writeKeys(keys: readonly string[]): void {
    if (keys.length > KEYS_MAX) throw new RangeError(`at most ${KEYS_MAX} top-level members can be asked for`);
    const encoded = keys.map((key) => {
      const bytes = Buffer.from(key);
      if (bytes.length > KEY_MAX_BYTES || bytes.includes(BACKSLASH) || bytes.includes(QUOTE)) throw new RangeError(`"${key}" cannot be asked for`);
      return bytes;
    });
    encoded.forEach((bytes, k) => {
      this.bytes[KEY_LENGTHS_AT + k] = bytes.length;
      this.bytes.set(bytes, KEY_BYTES_AT + KEY_MAX_BYTES * k);
    });
    this.keys = keys;
  }
}

let check: JsonCheck | null = null;

/** The module's limits are i32 (members one less: it counts a non-object body's own value too). */
const I32_MAX = 0x7fffffff;
/** No limit but the module's own depth (TOP_LEVEL_UNDECIDED past it). */
const NO_JSON_LIMITS: JsonLimits = Object.freeze({ maxJsonDepth: I32_MAX, maxJsonMembers: I32_MAX });

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
  if (isPlainString(b, start, end)) return plainString(b, start + 1, end - 1);
  if (first === 0x74 && end - start === 4) return true;
  if (first === 0x66 && end - start === 5) return false;
  if (first === 0x6e && end - start === 4) return null;
  // A plain non-negative integer (max_tokens and the like): read without making a string.
  if (end - start <= 15) {
    let n = 0;
    let i = start;
    for (; i < end; i++) {
      const d = b[i]! - 0x30;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === end && (first !== 0x30 || end - start === 1)) return n;
  }
  return JSON.parse(b.toString('utf8', start, end));
}

/** Where a string value sits in the body's bytes: [start, end) inside its quotes. */
export interface StringSpan {
  /** -1: not known (see readTopLevelMembers). */
  start: number;
  end: number;
}

/** No span: the member is absent, or was not looked for. */
export const NO_STRING_SPAN: StringSpan = Object.freeze({ start: -1, end: -1 });

/**
 * Checks that `bytes` are one JSON value as JSON.parse would accept them (after a UTF-8 decode)
 * and, when it is an object, returns an object holding those of its top-level members named in
 * `keys`, with the values JSON.parse would give them (the last of duplicates, as JSON.parse
 * keeps). Else TOP_LEVEL_NOT_JSON, TOP_LEVEL_NOT_OBJECT, or TOP_LEVEL_UNDECIDED when it nests
 * deeper than 1024 levels or a top-level key holds an escape, or TOP_LEVEL_OVER_LIMIT when it
 * goes past `limits` (the same counts as checkJsonLimits; the pass stops there). `keys`: plain
 * names (no quote or backslash, at most 8, each at most 64 bytes). `firstSpan`, when given,
 * gets where the value of `keys[0]` sits when the object has that member once, spelt without
 * an escape, with a string value without one (so its bytes can be replaced in place); else
 * start -1. `marker`: eight bytes of text looked for on the way (bodyHeldMarker).
 */
export function readTopLevelMembers(
  bytes: Buffer,
  keys: readonly string[],
  firstSpan: StringSpan | null = null,
  limits: JsonLimits = NO_JSON_LIMITS,
  marker = '',
): JsonObject | number {
  const checker = (check ??= new JsonCheck());
  const verdict = checker.read(bytes, keys, limits, marker);
  if (verdict !== 0) return verdict; // the module's codes are the TOP_LEVEL_* values
  const members: JsonObject = {};
  if (firstSpan !== null) firstSpan.start = -1;
  const found = checker.found;
  for (let k = 0; k < keys.length; k++) {
    const count = found[3 * k]!;
    if (count === 0) continue;
    const start = found[3 * k + 1]!;
    const end = found[3 * k + 2]!;
    storeMember(k, members, keys[k]!, valueAt(bytes, start, end));
    // The key is spelt without an escape (else the module leaves the body to JSON.parse).
    if (k === 0 && firstSpan !== null && count === 1 && isPlainString(bytes, start, end)) {
      firstSpan.start = start + 1;
      firstSpan.end = end - 1;
    }
  }
  return members;
}

/**
 * Whether the body the last readTopLevelMembers read as an object holds its `marker` anywhere
 * (what `bytes.indexOf(marker) !== -1` says of valid JSON: text outside strings cannot spell it).
 */
export function bodyHeldMarker(): boolean {
  return check !== null && check.sawMarker();
}
