// A lane's non-stream usage, read the short way. An upstream writes the usage member of every
// answer alike (the same members in the same order; only the counts change) and ends every
// body with the same members after it (OpenAI's service_tier and system_fingerprint, say). So
// the first body is read the long way (topLevelValueText, then JSON.parse) and its shape kept:
// its text from the usage key to its end, cut at each integer of the value. A later body whose
// end matches that text around plain integers has those integers written into the value parsed
// the first time, which the codec then decodes as before: no search of the body, no parse, no
// object made (about 1.6 against 0.4 µs for the mock's OpenAI completion).
//
// Why a match is the body's last top-level usage member, as JSON.parse would read it: the
// shape was learnt only where lastMemberValueText showed that (json-field.ts); a match holds
// the same text from the key's quote to the end of the body, the integers aside, and they
// change no structure. A body that does not match is read the long way and its shape learnt in
// place of the old one; after a run of misses only now and then, so a lane whose bodies differ
// every time pays one comparison more than before.
import { isJsonObject, lastMemberSpan, topLevelValueText, type ValueSpan } from './json-field.js';
import { holdsAt, plainStringEnd } from '../fast-path/json-scan.js';

const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;
/** Past this many digits an integer may not be exact as a double: the long way reads it. */
const MAX_DIGITS = 15;
/** Nesting past this depth is not learnt (usage values are two or three levels deep). */
const MAX_DEPTH = 8;
/** After this many misses in a row, a shape is learnt on one miss in this many. */
const RELEARN_EVERY = 64;

/** Where one integer of the value goes: `container[key]`. */
interface Slot {
  container: Record<string, unknown> | unknown[];
  key: string | number;
}

export class UsageShape {
  /** The shape's text around its integers: pieces[0] starts at the key's quote, the last ends the body. */
  private pieces: string[] = [];
  private slots: Slot[] = [];
  /** `{ [field]: value }`: the value parsed when the shape was learnt, rewritten by each match. */
  private body: Record<string, unknown> | null = null;
  private misses = 0;
  private readonly span: ValueSpan = { keyStart: 0, start: 0, end: 0 };

  constructor(private readonly field: string) {}

  /**
   * A body holding only the usage field of the same-protocol body `text`, parsed (what the
   * codec's usageFromResponse reads), or null when `text` has no such field. It may be the
   * object returned before, rewritten: read it before the next call. Throws when the field's
   * value is not JSON (as JSON.parse does).
   */
  read(text: string): Record<string, unknown> | null {
    if (this.body !== null && this.matches(text)) {
      this.misses = 0;
      return this.body;
    }
    if (this.misses++ < RELEARN_EVERY || this.misses % RELEARN_EVERY === 0) {
      const learnt = this.learn(text);
      if (learnt !== null) return learnt;
    }
    const value = topLevelValueText(text, this.field);
    return value === undefined ? null : { [this.field]: JSON.parse(value) as unknown };
  }

  /** Matched from the end: each piece in place, each integer between two pieces written to its slot. */
  private matches(text: string): boolean {
    const pieces = this.pieces;
    let end = text.length;
    for (let i = pieces.length - 1; ; i--) {
      const piece = pieces[i]!;
      const start = end - piece.length;
      if (start <= 0 || !holdsAt(text, start, piece)) return false;
      // The key's quote opens a string unless a backslash escapes it (see lastMemberValueText).
      if (i === 0) return text.charCodeAt(start - 1) !== BACKSLASH;
      let from = start;
      while (from > 0) {
        const c = text.charCodeAt(from - 1);
        if (c < ZERO || c > NINE) break;
        from--;
      }
      const digits = start - from;
      if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && text.charCodeAt(from) === ZERO)) return false;
      let n = 0;
      for (let d = from; d < start; d++) n = n * 10 + (text.charCodeAt(d) - ZERO);
      const slot = this.slots[i - 1]!;
      (slot.container as Record<string, unknown>)[slot.key] = n;
      end = from;
    }
  }

  /** The long way, keeping the shape when the body shows one; null when it does not. */
  private learn(text: string): Record<string, unknown> | null {
    const span = this.span;
    if (!lastMemberSpan(text, this.field, span)) return null;
    const body: Record<string, unknown> = {};
    body[this.field] = JSON.parse(text.slice(span.start, span.end)) as unknown;
    const cut = new ShapeCut(text, span.keyStart);
    if (cut.value(span.start, body, this.field, 0) !== span.end) return body;
    this.pieces = cut.finish(text.length);
    this.slots = cut.slots;
    this.body = body;
    return body;
  }
}

/** Cuts a value's text at its integers, walking the parsed value beside it (a strict subset). */
class ShapeCut {
  readonly pieces: string[] = [];
  readonly slots: Slot[] = [];
  private pieceStart: number;

  constructor(private readonly text: string, start: number) {
    this.pieceStart = start;
  }

  /**
   * The value at `at` (JSON that was parsed into `container[key]`); returns the index after it,
   * or -1 when it holds what the shape does not keep (escapes, duplicate or `__proto__` keys,
   * deep nesting).
   */
  value(at: number, container: Record<string, unknown> | unknown[], key: string | number, depth: number): number {
    const s = this.text;
    const c = s.charCodeAt(at);
    const v = (container as Record<string, unknown>)[key];
    if (c === 0x7b) return depth < MAX_DEPTH && isJsonObject(v) ? this.object(at, v, depth) : -1; // {
    if (c === 0x5b) return depth < MAX_DEPTH && Array.isArray(v) ? this.array(at, v, depth) : -1; // [
    if (c === 0x22) return plainStringEnd(s, at); // "
    let end = at;
    while (end < s.length && !delimits(s.charCodeAt(end))) end++;
    if (end === at) return -1;
    const digits = end - at;
    if (c >= ZERO && c <= NINE && digits <= MAX_DIGITS && (digits === 1 || c !== ZERO) && isDigits(s, at, end)) {
      this.pieces.push(s.slice(this.pieceStart, at));
      this.slots.push({ container, key });
      this.pieceStart = end;
    }
    return end; // other numbers, true, false and null stay in the piece
  }

  private object(at: number, obj: Record<string, unknown>, depth: number): number {
    const s = this.text;
    const seen = new Set<string>();
    let i = skipSpace(s, at + 1);
    if (s.charCodeAt(i) === 0x7d) return i + 1; // }
    for (;;) {
      const keyEnd = plainStringEnd(s, i);
      if (keyEnd < 0) return -1;
      const key = s.slice(i + 1, keyEnd - 1);
      if (key === '__proto__' || seen.has(key)) return -1;
      seen.add(key);
      i = skipSpace(s, keyEnd);
      if (s.charCodeAt(i) !== 0x3a) return -1; // :
      i = this.value(skipSpace(s, i + 1), obj, key, depth + 1);
      if (i < 0) return -1;
      i = skipSpace(s, i);
      const c = s.charCodeAt(i);
      if (c === 0x7d) return i + 1;
      if (c !== 0x2c) return -1; // ,
      i = skipSpace(s, i + 1);
    }
  }

  private array(at: number, arr: unknown[], depth: number): number {
    const s = this.text;
    let i = skipSpace(s, at + 1);
    if (s.charCodeAt(i) === 0x5d) return i + 1; // ]
    for (let index = 0; ; index++) {
      i = this.value(i, arr, index, depth + 1);
      if (i < 0) return -1;
      i = skipSpace(s, i);
      const c = s.charCodeAt(i);
      if (c === 0x5d) return i + 1;
      if (c !== 0x2c) return -1;
      i = skipSpace(s, i + 1);
    }
  }

  /** The pieces, the last running to `end` (the body's end). */
  finish(end: number): string[] {
    this.pieces.push(this.text.slice(this.pieceStart, end));
    return this.pieces;
  }
}

function delimits(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

function skipSpace(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}
