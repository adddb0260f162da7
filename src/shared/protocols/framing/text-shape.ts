// The shape of a JSON text an upstream writes again and again with only its numbers and short
// strings changed (a usage member, a stream's usage event): the text cut at each plain integer
// and each plain string value, and the value parsed from it once, with a slot for each cut. A
// later text is matched from its end: each piece compared in place, each integer or string
// between two pieces written into its slot. Matched, the parsed value holds what JSON.parse of
// the later text would give: the pieces are the same text, and a plain integer (digits, no
// leading zero) or a plain string (no escape, no control character) changes no structure.
// Users: usage-shape.ts (non-stream usage), openai/sse-passthrough.ts (a stream's usage event).
import { isJsonObject } from './json-field.js';
import { holdsAt, plainStringEnd } from '../fast-path/json-scan.js';
import { literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';
import { internalized, storeShapeSlot } from './store-sites.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;
/** Past this many digits an integer may not be exact as a double: such a text is not matched. */
const MAX_DIGITS = 15;
/** Nesting past this depth is not kept (the values shaped here are two or three levels deep). */
const MAX_DEPTH = 8;

type Container = Record<string, unknown> | unknown[];

/** One cut: what goes between two pieces, written to `container[key]`. */
interface Slot {
  container: Container;
  key: string | number;
  /** A string's content, between quotes the pieces hold; else an integer. */
  string: boolean;
}

/**
 * What each kind of slot holds, as a pattern: a plain string's content (its quotes are in the
 * pieces: no quote, backslash or control character), and an integer readInteger takes (up to
 * MAX_DIGITS digits, no leading zero).
 */
const STRING_SLOT = SLOT_PATTERN.plainString.slice(1, -1);
const INTEGER_SLOT = `(?:0|[1-9][0-9]{0,${MAX_DIGITS - 1}})`;

export class TextShape {
  /** The whole shape as one sticky pattern (pieces literal, slots as above), made on first use. */
  private whole: RegExp | null = null;
  /** The fewest characters a match takes: every piece, and a digit for each integer slot (a string may be empty). */
  readonly minChars: number;

  constructor(
    /** The text around the cuts: the first starts where the shape starts, the last ends the text. */
    private readonly pieces: readonly string[],
    private readonly slots: readonly Slot[],
  ) {
    let n = 0;
    for (const slot of slots) if (!slot.string) n++;
    for (const piece of pieces) n += piece.length;
    this.minChars = n;
  }

  /**
   * True when all of `text` is this shape (what `matchFromEnd(text) === 0` tells), with every
   * slot written; false leaves some slots written, as matchFromEnd does. One native match of
   * the whole text, then the values read forward from the places the pieces fix: a piece of 13
   * characters or more compared in place is a call into V8's runtime, and a shape of a stream's
   * start or end event has many.
   */
  matchWhole(text: string): boolean {
    if (text.length > PATTERN_MAX_CHARS) return this.matchFromEnd(text) === 0; // see PATTERN_MAX_CHARS
    const pattern = (this.whole ??= this.pattern());
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return false;
    this.readSlots(text, 0);
    return true;
  }

  /**
   * What matchFromEnd tells, the short way: one native match of the text from where the first
   * piece last occurs early enough for the rest to fit. The parts of a match are fixed (an
   * integer slot sits between pieces that end and start with no digit, a string slot between
   * quotes it cannot hold), so the text matches from one start at most, the one matchFromEnd
   * walks back to; a failed match from the last occurrence may still mean an earlier start, so
   * that case is left to matchFromEnd. About 0.2 against 0.6 µs for the mock's OpenAI usage.
   */
  matchTail(text: string): number {
    const first = this.pieces[0]!;
    const from = text.length - this.minChars;
    if (first === '' || from < 0) return this.matchFromEnd(text);
    const start = text.lastIndexOf(first, from);
    if (start < 0) return -1; // the first piece occurs nowhere it could start a match
    if (text.length - start <= PATTERN_MAX_CHARS) {
      const pattern = (this.whole ??= this.pattern());
      pattern.lastIndex = start;
      if (pattern.test(text)) {
        this.readSlots(text, start);
        return start;
      }
    }
    return this.matchFromEnd(text);
  }

  /** After a match from `at`: each slot's value read forward from the places the pieces fix. */
  private readSlots(text: string, at: number): void {
    const { pieces, slots } = this;
    at += pieces[0]!.length;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const container = slot.container as Record<string, unknown>;
      if (slot.string) {
        // The pattern holds no quote in the content: the first quote closes it.
        const end = text.indexOf('"', at);
        storeShapeSlot(i, container, slot.key, text.slice(at, end));
        at = end;
      } else {
        // After the integer comes a piece that starts with no digit (a delimiter).
        let n = 0;
        for (let c = text.charCodeAt(at); c >= ZERO && c <= NINE; c = text.charCodeAt(++at)) n = n * 10 + (c - ZERO);
        storeShapeSlot(i, container, slot.key, n);
      }
      at += pieces[i + 1]!.length;
    }
  }

  private pattern(): RegExp {
    const { pieces, slots } = this;
    let source = literalPattern(pieces[0]!);
    for (let i = 0; i < slots.length; i++) source += (slots[i]!.string ? STRING_SLOT : INTEGER_SLOT) + literalPattern(pieces[i + 1]!);
    return new RegExp(`${source}$`, 'y');
  }

  /**
   * Matches `text`, up to its end, from the end: where the first piece starts, or -1. On -1
   * some slots may have been written: the value is then not to be used until a match.
   */
  matchFromEnd(text: string): number {
    const pieces = this.pieces;
    let end = text.length;
    for (let i = pieces.length - 1; ; i--) {
      const piece = pieces[i]!;
      const start = end - piece.length;
      if (start < 0 || !holdsAt(text, start, piece)) return -1;
      if (i === 0) return start;
      const slot = this.slots[i - 1]!;
      end = slot.string ? readString(text, start, slot) : readInteger(text, start, slot);
      if (end < 0) return -1;
    }
  }
}

/** The integer ending at `end`, written to its slot; its start, or -1. */
function readInteger(text: string, end: number, slot: Slot): number {
  let from = end;
  while (from > 0) {
    const c = text.charCodeAt(from - 1);
    if (c < ZERO || c > NINE) break;
    from--;
  }
  const digits = end - from;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && text.charCodeAt(from) === ZERO)) return -1;
  let n = 0;
  for (let d = from; d < end; d++) n = n * 10 + (text.charCodeAt(d) - ZERO);
  (slot.container as Record<string, unknown>)[slot.key] = n;
  return from;
}

/**
 * The string content ending at `end` (its closing quote, the next piece's first character),
 * written to its slot; the index after its opening quote, or -1. The last quote before `end`
 * opens it unless a backslash escapes it, and then the piece before, which ends with the
 * opening quote after a structural character, does not match. Walked back from `end` in one
 * loop (String#lastIndexOf is a call into V8's runtime, dearer than these short values).
 */
function readString(text: string, end: number, slot: Slot): number {
  let open = end - 1;
  for (; open >= 0; open--) {
    const c = text.charCodeAt(open);
    if (c === QUOTE) break;
    if (c < 0x20 || c === BACKSLASH) return -1;
  }
  if (open < 0) return -1;
  (slot.container as Record<string, unknown>)[slot.key] = text.slice(open + 1, end);
  return open + 1;
}

/**
 * The shape of `text[from, end of text)`, where the JSON value at `valueStart` was parsed into
 * `container[key]` (everything after the value is kept as text); null when the value holds what
 * a shape does not keep (escapes, duplicate or `__proto__` keys, deep nesting).
 */
export function cutShape(text: string, from: number, valueStart: number, container: Container, key: string | number): TextShape | null {
  const cut = new ShapeCut(text, from);
  if (cut.value(valueStart, container, key, 0) < 0) return null;
  cut.pieces.push(text.slice(cut.pieceStart));
  return new TextShape(cut.pieces, cut.slots);
}

/** Cuts a value's text, walking the parsed value beside it (a strict subset of JSON). */
class ShapeCut {
  readonly pieces: string[] = [];
  readonly slots: Slot[] = [];

  constructor(
    private readonly text: string,
    public pieceStart: number,
  ) {}

  /** The value at `at`, parsed into `container[key]`: the index after it, or -1. */
  value(at: number, container: Container, key: string | number, depth: number): number {
    const s = this.text;
    const c = s.charCodeAt(at);
    const v = (container as Record<string, unknown>)[key];
    if (c === 0x7b) return depth < MAX_DEPTH && isJsonObject(v) ? this.object(at, v, depth) : -1; // {
    if (c === 0x5b) return depth < MAX_DEPTH && Array.isArray(v) ? this.array(at, v, depth) : -1; // [
    if (c === QUOTE) {
      const end = plainStringEnd(s, at);
      if (end < 0) return -1;
      this.cut(at + 1, end - 1, container, key, true); // the quotes stay in the pieces
      return end;
    }
    let end = at;
    while (end < s.length && !delimits(s.charCodeAt(end))) end++;
    if (end === at) return -1;
    const digits = end - at;
    if (c >= ZERO && c <= NINE && digits <= MAX_DIGITS && (digits === 1 || c !== ZERO) && isDigits(s, at, end)) {
      this.cut(at, end, container, key, false);
    }
    return end; // other numbers, true, false and null stay in the piece
  }

  private cut(start: number, end: number, container: Container, key: string | number, string: boolean): void {
    this.pieces.push(this.text.slice(this.pieceStart, start));
    this.slots.push({ container, key: typeof key === 'string' ? internalized(key) : key, string });
    this.pieceStart = end;
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
