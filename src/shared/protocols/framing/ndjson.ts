// Newline-delimited JSON (Ollama's stream framing): one JSON value a line. The bytes are
// decoded as SSE's are, with Buffer's UTF-8 decoder (a streaming TextDecoder goes through ICU),
// unless the fast-path switch is off.
import { TextDecoder } from 'node:util';
import { translateFastPath } from '../fast-path/switch.js';
import { Utf8Chunks } from './sse.js';

/**
 * Offered a line as `text[start, end)` before it is sliced out: true when it was read, false
 * to have it passed to `onLine` as usual.
 */
export type NdjsonLineReader = (text: string, start: number, end: number) => boolean;

/**
 * Offered the text at a line's start before its end is searched for: when it recognises a
 * line there that ends at some `end` (`lineEndsAt(text, end)`: a line feed, or CR LF), holding
 * no CR or LF and starting and ending with a visible ASCII character, it reads it and
 * returns `end`; else -1, and the line is split and offered as usual.
 */
export type NdjsonLineStart = (text: string, start: number) => number;

const LF = 0x0a;
const CR = 0x0d;

/** A line that ends at `text[end]` ends there: a line feed, or CR LF. */
export function lineEndsAt(text: string, end: number): boolean {
  const c = text.charCodeAt(end);
  return c === LF || (c === CR && text.charCodeAt(end + 1) === LF);
}
const STREAM = { stream: true } as const;

/**
 * Incremental NDJSON reader: push bytes, `onLine` fires per complete non-empty line, trimmed.
 *
 * With a `NdjsonLineReader`, a line that trimming leaves as it is (a visible ASCII character
 * first and last, the CR of a CRLF left out) is offered in place in the decoded text first,
 * without the slice and trim per line; the lines it declines go to `onLine` as before.
 */
export class NdjsonReader {
  private readonly decoder = translateFastPath ? new Utf8Chunks() : new TextDecoder();
  private pending = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly inPlace: NdjsonLineReader | null = null,
    private readonly lineStart: NdjsonLineStart | null = null,
  ) {}

  push(chunk: Uint8Array): void {
    const text = this.pending + this.decoder.decode(chunk, STREAM);
    const lineStart = this.lineStart;
    let start = 0;
    for (;;) {
      if (lineStart !== null) {
        // Read where it starts, its end found by the match: what the split and `inPlace`
        // would have done with it (the line feed, or the CR LF, is where indexOf stops).
        const end = lineStart(text, start);
        if (end >= 0) {
          start = end + (text.charCodeAt(end) === LF ? 1 : 2);
          continue;
        }
      }
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      this.line(text, start, nl);
      start = nl + 1;
    }
    // Only the unfinished tail is kept, so a chunk is scanned once, never re-split.
    this.pending = text.slice(start);
  }

  end(): void {
    const text = this.pending + this.decoder.decode();
    this.pending = '';
    this.line(text, 0, text.length);
  }

  /** The line `text[start, end)`, its line feed left out. */
  private line(text: string, start: number, end: number): void {
    const inPlace = this.inPlace;
    if (inPlace !== null && end > start) {
      const last = text.charCodeAt(end - 1) === CR ? end - 1 : end;
      // trim() removes nothing from a line that starts and ends with a visible ASCII character.
      if (last > start && visible(text.charCodeAt(start)) && visible(text.charCodeAt(last - 1)) && inPlace(text, start, last)) return;
    }
    const line = text.slice(start, end).trim();
    if (line.length > 0) this.onLine(line);
  }
}

function visible(c: number): boolean {
  return c > 0x20 && c < 0x7f;
}
