// The fast path for the Gemini chunk nearly every stream is made of: one candidate whose content
// is one non-empty text part, no finishReason, with or without usageMetadata (a running total
// Gemini repeats on every chunk). Recognised by its shape, spaced as Gemini writes it (a space
// after each colon) or not at all; its text read without parsing, its usageMetadata (when there)
// parsed alone. Any other chunk (a thought, a function call, a finish, an error, an unknown
// field, a second part or candidate) is refused and goes through JSON.parse like before.
import {
  compositeEnd,
  plainScalarEnd,
  plainStringEnd,
  spaceEnd,
  stringLiteralEnd,
  holdsAt,
  readStringLiteral,
  type StringRead,
} from '../fast-path/json-scan.js';
import type { JsonObject } from '../framing/json-field.js';
import { layoutMissed, literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';

/** Tail members whose values change from stream to stream: slots in a layout. */
const SLOT_KEYS = ['"responseId":', '"createTime":'];

/**
 * A lane's text chunk without usageMetadata as one sticky pattern: the head up to the text as
 * the lane writes it, a non-empty string, and the tail (responseId and createTime as slots,
 * the rest as written). Kept in the lane's memo, so a chunk is one native match where it was
 * two slice comparisons and a scan of the text; and the SSE reader's line reader finds its
 * end by the match. Only lengths are kept, not the texts (slices would keep their chunks alive).
 */
export class GeminiTextLayout {
  /** The chunk with a text without escapes (its literal is then what JSON.stringify writes). */
  readonly plain: RegExp;
  /** The chunk with any text (escapes checked by JSON.parse). */
  readonly any: RegExp;
  readonly headLength: number;
  /** Text chunks the lane's layouts missed (carried from one to the next; layoutMissed). */
  misses = 0;

  constructor(head: string, tail: string) {
    this.headLength = head.length;
    const tailSource = tailPattern(tail);
    this.plain = new RegExp(`${literalPattern(head)}${SLOT_PATTERN.nonEmptyPlainString}${tailSource}`, 'y');
    this.any = new RegExp(`${literalPattern(head)}${SLOT_PATTERN.nonEmptyStringLiteral}${tailSource}`, 'y');
  }
}

/** The lane's layout, in its memo (null until a stream taught one). */
export interface GeminiTextLayouts {
  text: GeminiTextLayout | null;
}

/** A checked tail (newTail) as a pattern: SLOT_KEYS' values as plain-string slots, the rest literal. */
function tailPattern(tail: string): string {
  const places: [number, number][] = [];
  for (const key of SLOT_KEYS) {
    // Only a key can match: the tail's strings are plain (no quote inside one).
    const k = tail.indexOf(key);
    if (k < 0) continue;
    const v = spaceEnd(tail, k + key.length);
    places.push([v, plainStringEnd(tail, v)]);
  }
  places.sort((a, b) => a[0] - b[0]);
  let source = '';
  let from = 0;
  for (const [v, e] of places) {
    source += literalPattern(tail.slice(from, v)) + SLOT_PATTERN.plainString;
    from = e;
  }
  return source + literalPattern(tail.slice(from));
}

/**
 * Reads the text chunks of one stream. Gemini writes the same members around the text in every
 * chunk (but for the usage counts), so the first chunk's head and tail are checked token by
 * token and later chunks only compared with them: one comparison before the text, and after it
 * one comparison, or two around the usageMetadata object.
 *
 * The head's grammar ends at the same place in the same nesting whatever it holds, so any
 * checked head and any checked tail make a chunk of the recognised shape:
 * `{"candidates":[{"content":{("role":"…",)*"parts":[{"text":` TEXT `}](,"role":"…")*}(,"index":n)*}]`
 * then `(,"usageMetadata":{…}|,"modelVersion":"…"|,"responseId":"…"|,"createTime":"…")*}`, with
 * usageMetadata at most once.
 */
export class GeminiTextChunkReader implements StringRead {
  /** The last recognised chunk up to its text literal, or ''. */
  private head = '';
  /** The last recognised chunk after its text: up to its usageMetadata value, or all of it when it had none; or ''. */
  private tail = '';
  /** Whether `tail` stops at a usageMetadata value. */
  private tailToUsage = false;
  /** After the usageMetadata value to the end of the chunk (with `tailToUsage`). */
  private afterUsage = '';
  /** The last usageMetadata object read: its JSON text and its value. */
  private usageText = '';
  private usageValue: JsonObject | null = null;
  /** The last chunk read: its text. */
  text = '';
  /** The last chunk read: its text as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;
  /** The last chunk read: its usageMetadata, or null when it had none. */
  usage: JsonObject | null = null;

  /** This stream's chunks carry usageMetadata: not tried against the lane's layout (which has none). */
  private noLayout = false;
  /** `lineEnd`'s last match was by the layout's `any` pattern only. */
  private escaped = false;

  constructor(private readonly layouts: GeminiTextLayouts | null = null) {}

  /**
   * Reads the chunk `s[start, end)`: true when it is a plain text chunk (`text`, `literal` and
   * `usage` set), false when it needs the full decoder. `s[end]` is a line end or `s`'s end:
   * no token scanned here holds one, so no scan runs past `end`.
   */
  read(s: string, start: number, end: number): boolean {
    const layout = this.layout();
    if (layout !== null && end - start <= PATTERN_MAX_CHARS && this.match(layout, s, start) === end) return this.readMatched(layout, s, start);
    if (!this.readByHead(s, start, end)) return false;
    if (this.layouts !== null) {
      if (this.tailToUsage) this.noLayout = true;
      else {
        // A text chunk the layout missed, read the long way: the lane may learn its layout from it.
        const misses = layoutMissed(layout);
        if (misses >= 0) {
          const learnt = new GeminiTextLayout(this.head, this.tail);
          learnt.misses = misses;
          this.layouts.text = learnt;
        }
      }
    }
    return true;
  }

  /**
   * The chunk at `s[start]`, its end not yet found: where it ends when the lane's layout
   * matches it (read), else -1. The caller checks that its line ends there.
   */
  lineEnd(s: string, start: number): number {
    const layout = this.layout();
    if (layout === null || s.length - start > PATTERN_MAX_CHARS) return -1;
    const end = this.match(layout, s, start);
    return end >= 0 && this.readMatched(layout, s, start) ? end : -1;
  }

  private layout(): GeminiTextLayout | null {
    return this.layouts === null || this.noLayout ? null : this.layouts.text;
  }

  /** Where the layout's match at `s[start]` ends (`escaped` set), or -1. */
  private match(layout: GeminiTextLayout, s: string, start: number): number {
    let p = layout.plain;
    p.lastIndex = start;
    this.escaped = false;
    if (!p.test(s)) {
      p = layout.any;
      p.lastIndex = start;
      if (!p.test(s)) return -1;
      this.escaped = true;
    }
    return p.lastIndex;
  }

  /** The text of the chunk at `s[start]` that the layout matched: false on a bad escape. */
  private readMatched(layout: GeminiTextLayout, s: string, start: number): boolean {
    const litStart = start + layout.headLength;
    // Without escapes the next quote closes it; with them, the scan finds its end.
    const litEnd = this.escaped ? -stringLiteralEnd(s, litStart) - 1 : s.indexOf('"', litStart + 1) + 1;
    this.usage = null;
    return readStringLiteral(s, litStart, litEnd, this.escaped, this);
  }

  /** `s[start, end)` by the stream's own head and tail (learnt from its first chunk). */
  private readByHead(s: string, start: number, end: number): boolean {
    let litStart = start + this.head.length;
    if (this.head.length === 0 || !holdsAt(s, start, this.head)) {
      litStart = textLiteralStart(s, start);
      if (litStart < 0) return false;
      this.head = s.slice(start, litStart);
    }
    const found = stringLiteralEnd(s, litStart);
    if (found === 0) return false;
    const escaped = found < 0;
    const litEnd = escaped ? -found - 1 : found;
    if (litEnd === litStart + 2) return false; // '' adds nothing: the full decoder decides
    if (!this.knownTail(s, litEnd, end) && !this.newTail(s, litEnd, end)) return false;
    return readStringLiteral(s, litStart, litEnd, escaped, this);
  }

  /** `s[from, end)` is the last checked tail, its usageMetadata object aside; sets `usage`. */
  private knownTail(s: string, from: number, end: number): boolean {
    const tail = this.tail;
    if (tail.length === 0) return false;
    if (!this.tailToUsage) {
      if (end - from !== tail.length || !holdsAt(s, from, tail)) return false;
      this.usage = null;
      return true;
    }
    const at = from + tail.length;
    if (at > end || !holdsAt(s, from, tail)) return false;
    const usageEnd = this.usageObjectEnd(s, at, end);
    return usageEnd >= 0 && end - usageEnd === this.afterUsage.length && holdsAt(s, usageEnd, this.afterUsage);
  }

  /** Checks `s[from, end)` token by token as a tail of the recognised shape; remembers it and sets `usage`. */
  private newTail(s: string, from: number, end: number): boolean {
    let at = token(s, token(s, from, '}'), ']');
    while (at >= 0 && isNext(s, at, ',')) at = plainMember(s, token(s, token(s, at, ','), '"role"'), plainStringEnd);
    at = token(s, at, '}');
    while (at >= 0 && isNext(s, at, ',')) at = plainMember(s, token(s, token(s, at, ','), '"index"'), plainScalarEnd);
    at = token(s, token(s, at, '}'), ']');
    let usageStart = -1;
    let usageEnd = -1;
    while (at >= 0 && isNext(s, at, ',')) {
      const keyStart = spaceEnd(s, token(s, at, ','));
      const keyEnd = plainStringEnd(s, keyStart);
      if (keyEnd < 0) return false;
      const key = s.slice(keyStart + 1, keyEnd - 1);
      if (key === 'usageMetadata') {
        if (usageStart >= 0) return false; // a second one: JSON.parse would keep it, this reader does not look
        const value = token(s, keyEnd, ':');
        if (value < 0) return false;
        usageStart = spaceEnd(s, value);
        at = usageEnd = this.usageObjectEnd(s, usageStart, end);
      } else if (key === 'modelVersion' || key === 'responseId' || key === 'createTime') {
        at = plainMember(s, keyEnd, plainStringEnd); // read by the first chunk only
      } else return false;
    }
    at = token(s, at, '}');
    if (at < 0 || spaceEnd(s, at) !== end) return false;
    this.tailToUsage = usageStart >= 0;
    if (this.tailToUsage) {
      this.tail = s.slice(from, usageStart);
      this.afterUsage = s.slice(usageEnd, end);
    } else {
      this.tail = s.slice(from, end);
      this.afterUsage = '';
      this.usage = null;
    }
    return true;
  }

  /** End of the usageMetadata object at `at` (sets `usage` to its value), or -1. */
  private usageObjectEnd(s: string, at: number, end: number): number {
    const known = this.usageText;
    // The counts repeat while nothing is generated: the same text is the same object.
    if (known.length > 0 && at + known.length <= end && holdsAt(s, at, known)) {
      this.usage = this.usageValue;
      return at + known.length;
    }
    if (s.charCodeAt(at) !== OPEN_BRACE) return -1;
    const close = compositeEnd(s, at, end);
    if (close < 0) return -1;
    const text = s.slice(at, close);
    let value: JsonObject;
    try {
      // A whole object parsed alone is what JSON.parse of the chunk holds at this place.
      value = JSON.parse(text) as JsonObject;
    } catch {
      return -1;
    }
    this.usageText = text;
    this.usageValue = this.usage = value;
    return close;
  }
}

const OPEN_BRACE = 0x7b;

/** The grammar's head: where the text literal starts, or -1. */
function textLiteralStart(s: string, start: number): number {
  let at = token(s, token(s, token(s, token(s, token(s, token(s, start, '{'), '"candidates"'), ':'), '['), '{'), '"content"');
  at = token(s, token(s, at, ':'), '{');
  // Vertex AI writes role before parts.
  while (at >= 0 && isNext(s, at, '"role"')) at = token(s, plainMember(s, token(s, at, '"role"'), plainStringEnd), ',');
  at = token(s, token(s, token(s, token(s, token(s, token(s, at, '"parts"'), ':'), '['), '{'), '"text"'), ':');
  return at < 0 ? -1 : spaceEnd(s, at);
}

/** After optional spaces at `at`, `s` holds `t`: the index after it, or -1 (also when `at` is). */
function token(s: string, at: number, t: string): number {
  if (at < 0) return -1;
  const i = spaceEnd(s, at);
  return holdsAt(s, i, t) ? i + t.length : -1;
}

function isNext(s: string, at: number, t: string): boolean {
  return holdsAt(s, spaceEnd(s, at), t);
}

/** After a key ending at `keyEnd`: `:` and a value read by `valueEnd`; the index after the value, or -1. */
function plainMember(s: string, keyEnd: number, valueEnd: (s: string, at: number) => number): number {
  const colon = token(s, keyEnd, ':');
  return colon < 0 ? -1 : valueEnd(s, spaceEnd(s, colon));
}
