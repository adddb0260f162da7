// The fast path for the Ollama line nearly every stream is made of: an assistant message with
// non-empty text content and nothing else, not done, exactly as Ollama writes it. Recognised by
// its shape, its text read without parsing; any other line (tool calls, thinking, images, done,
// an error, an unknown or repeated member, whitespace) is refused and goes through JSON.parse.
import { readStringLiteral, type StringRead } from '../fast-path/json-scan.js';
import { literalPattern, PATTERN_MAX_CHARS, SLOT_PATTERN } from '../fast-path/sticky-pattern.js';

const MODEL = '{"model":';
const CREATED_AT = ',"created_at":';
/** From the end of the created_at string to the content string. */
const MESSAGE = ',"message":{"role":"assistant","content":';
/** From the end of the content string to the end of the line. */
const TAIL = '},"done":false}';

/** The text line, its content a plain string or any (escapes checked by JSON.parse). */
const line = (content: string): RegExp =>
  new RegExp(
    `${literalPattern(MODEL)}${SLOT_PATTERN.plainString}${literalPattern(CREATED_AT)}${SLOT_PATTERN.plainString}${literalPattern(MESSAGE)}${content}${literalPattern(TAIL)}`,
    'y',
  );
const PLAIN_LINE = line(SLOT_PATTERN.nonEmptyPlainString);
const ANY_LINE = line(SLOT_PATTERN.nonEmptyStringLiteral);

/**
 * Reads the text lines of one stream after its first line. Every line repeats `model` and
 * `created_at`, which the full decoder reads from the first line only: later lines need them
 * to be plain strings, not any value. A line is one native match of a sticky pattern (three
 * slice comparisons, each a call into V8's runtime, cost more than twice as much).
 */
export class OllamaTextLineReader implements StringRead {
  /** The last line read: its content text. */
  text = '';
  /** The last line read: its content as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;

  /**
   * Reads the line `s[start, end)`: true when it is a plain text line (`text` and `literal`
   * set), false when it needs the full decoder.
   */
  read(s: string, start: number, end: number): boolean {
    return end - start <= PATTERN_MAX_CHARS && this.match(s, start) === end && this.readMatched(s, start, end);
  }

  /**
   * The line at `s[start]`, its end not yet found: where it ends when it is a text line (read),
   * else -1. The caller checks that the line ends there (ndjson.ts lineEndsAt).
   */
  lineEnd(s: string, start: number): number {
    if (s.length - start > PATTERN_MAX_CHARS) return -1;
    const end = this.match(s, start);
    return end >= 0 && this.readMatched(s, start, end) ? end : -1;
  }

  /** `escaped`: the last match was by ANY_LINE only. */
  private escaped = false;

  /** Where a text line's match at `s[start]` ends, or -1. */
  private match(s: string, start: number): number {
    let p = PLAIN_LINE;
    p.lastIndex = start;
    this.escaped = false;
    if (!p.test(s)) {
      p = ANY_LINE;
      p.lastIndex = start;
      if (!p.test(s)) return -1;
      this.escaped = true;
    }
    return p.lastIndex;
  }

  /** The content of the matched line `s[start, end)`: false on a bad escape. */
  private readMatched(s: string, start: number, end: number): boolean {
    const litEnd = end - TAIL.length;
    let litStart: number;
    if (!this.escaped) {
      // Its opening quote is the last quote before its end: found walking back over the text.
      litStart = litEnd - 2;
      while (s.charCodeAt(litStart) !== 0x22) litStart--;
    } else {
      // After the model's and created_at's strings, which hold no quote.
      const createdAt = s.indexOf('"', start + MODEL.length + 1) + 1 + CREATED_AT.length;
      litStart = s.indexOf('"', createdAt + 1) + 1 + MESSAGE.length;
    }
    return readStringLiteral(s, litStart, litEnd, this.escaped, this);
  }
}
