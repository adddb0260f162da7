// The fast path for the Ollama line nearly every stream is made of: an assistant message with
// non-empty text content and nothing else, not done, exactly as Ollama writes it. Recognised by
// its shape, its text read without parsing; any other line (tool calls, thinking, images, done,
// an error, an unknown or repeated member, whitespace) is refused and goes through JSON.parse.
import { plainStringEnd, stringLiteralEnd, holdsAt, readStringLiteral, type StringRead } from '../fast-path/json-scan.js';

const MODEL = '{"model":';
const CREATED_AT = ',"created_at":';
/** From the end of the created_at string to the content string. */
const MESSAGE = ',"message":{"role":"assistant","content":';
/** From the end of the content string to the end of the line. */
const TAIL = '},"done":false}';

/**
 * Reads the text lines of one stream after its first line. Every line repeats `model` and
 * `created_at`, which the full decoder reads from the first line only: later lines need them
 * to be plain strings, not any value. The model repeats, so the head up to created_at is
 * compared whole with the last recognised line's; created_at is a timestamp that changes per
 * line, so it is checked as a plain string; the rest is compared with constants.
 */
export class OllamaTextLineReader implements StringRead {
  /** The last recognised line up to its created_at value (`{"model":"...","created_at":`), or ''. */
  private head = '';
  /** The last line read: its content text. */
  text = '';
  /** The last line read: its content as a JSON string literal, or undefined when it held escapes. */
  literal: string | undefined = undefined;

  /**
   * Reads the line `s[start, end)`: true when it is a plain text line (`text` and `literal`
   * set), false when it needs the full decoder.
   */
  read(s: string, start: number, end: number): boolean {
    let createdAt = start + this.head.length;
    if (this.head.length === 0 || !holdsAt(s, start, this.head)) {
      if (!holdsAt(s, start, MODEL)) return false;
      const modelEnd = plainStringEnd(s, start + MODEL.length);
      if (modelEnd < 0 || !holdsAt(s, modelEnd, CREATED_AT)) return false;
      createdAt = modelEnd + CREATED_AT.length;
      this.head = s.slice(start, createdAt);
    }
    // Neither string can run past `end`: a line feed (or the end of `s`) is a control character.
    const createdAtEnd = plainStringEnd(s, createdAt);
    if (createdAtEnd < 0 || !holdsAt(s, createdAtEnd, MESSAGE)) return false;
    const litStart = createdAtEnd + MESSAGE.length;
    const found = stringLiteralEnd(s, litStart);
    if (found === 0) return false;
    const escaped = found < 0;
    const litEnd = escaped ? -found - 1 : found;
    if (litEnd === litStart + 2) return false; // '' adds nothing: the full decoder decides
    if (end - litEnd !== TAIL.length || !holdsAt(s, litEnd, TAIL)) return false;
    return readStringLiteral(s, litStart, litEnd, escaped, this);
  }
}

