// Sticky regular expressions for the fast paths: a frame of a known layout is checked in one
// native match at `lastIndex` (fixed texts as literals, the changing values as the patterns
// below) instead of one slice compare per fixed text. A slice of 13 characters or more is a
// SlicedString, and comparing one goes into V8's runtime: about 43 ns a compare in a loop,
// against about 19 ns for a sticky match of the same literal. In place the gain is smaller
// than that, so patterns are used where a frame's several compares and scans become one match
// (the Responses delta) or where a measured decoder got cheaper (Anthropic's delta). Each
// pattern accepts exactly what the json-scan.ts scanner of the same name accepts, so a frame
// is taken by the pattern when and only when the scanners took it.

/**
 * Texts longer than this are not matched against a pattern with a loop (their callers leave
 * them to the full decoder): irregexp keeps a backtrack entry per character of a looped
 * string, and its stack overflows (a RangeError) somewhere past ten million characters.
 */
export const PATTERN_MAX_CHARS = 1 << 20;

/** The scanners' value patterns (json-scan.ts, and integerEnd in responses/stream-fast-path.ts). */
export const SLOT_PATTERN = {
  /** integerEnd: 0, or a digit 1-9 and any digits (no sign, fraction or exponent). */
  integer: '(?:0|[1-9][0-9]*)',
  /** plainStringEnd: a string without escapes or control characters. */
  plainString: '"[^"\\\\\\x00-\\x1f]*"',
  /** plainStringEnd, not empty. */
  nonEmptyPlainString: '"[^"\\\\\\x00-\\x1f]+"',
  /**
   * stringLiteralEnd, not empty: any escape (a backslash and the character after it, checked
   * later by JSON.parse), no raw control character, at least one character between the quotes.
   */
  nonEmptyStringLiteral: '"(?:[^"\\\\\\x00-\\x1f]|\\\\[\\s\\S])+"',
  /** stringLiteralEnd: the same, empty or not. */
  stringLiteral: '"(?:[^"\\\\\\x00-\\x1f]|\\\\[\\s\\S])*"',
  /** plainString, of characters below 0x80 only (each its byte in UTF-8 and in latin1). */
  asciiPlainString: '"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7f]*"',
  /** stringLiteral, of characters below 0x80 only. */
  asciiStringLiteral: '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7f]|\\\\[\\x00-\\x7f])*"',
} as const;

/**
 * A text the lane's layout (null: none yet) missed was read the long way: counts the miss on
 * the layout and answers whether to learn a new one from the text, giving the count the new
 * layout goes on from (-1: not now). A layout is learnt at once when there is none, else on
 * the 1st, 2nd, 4th, 8th... miss: a lane whose streams alternate between two layouts compiles
 * a pattern ever more rarely.
 */
export function layoutMissed(layout: { misses: number } | null): number {
  const misses = layout === null ? 0 : ++layout.misses;
  return (misses & (misses - 1)) === 0 ? misses : -1;
}

/** `text` as a pattern that matches it literally (code unit by code unit: no `u` flag). */
export function literalPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** A sticky matcher of `text` at an index: `s` holds `text` at `at`. */
export class StickyLiteral {
  private readonly pattern: RegExp;

  constructor(readonly text: string) {
    this.pattern = new RegExp(literalPattern(text), 'y');
  }

  at(s: string, at: number): boolean {
    if (at < 0) return false; // lastIndex would read it as 0
    const p = this.pattern;
    p.lastIndex = at;
    return p.test(s);
  }
}
