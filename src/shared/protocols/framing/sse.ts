// Server-sent events in both directions. Parsing is eventsource-parser's; this file only
// bridges bytes to it and writes frames. The bytes are decoded with Buffer's UTF-8 decoder (one
// fast call per chunk, where a streaming TextDecoder goes through ICU), holding back the few
// bytes of a character split across chunks for the next one.
import { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { translateFastPath } from '../fast-path/switch.js';

export type SseHandler = (event: string | undefined, data: string) => void;
/**
 * Offered the data of a one-line event as `text[start, end)` before it is sliced out, and its
 * name as `text[nameStart, nameEnd)` (both -1 when it has none): true when it was read, false
 * to have it passed to the `SseHandler` as usual.
 */
export type SseDataReader = (text: string, start: number, end: number, nameStart: number, nameEnd: number) => boolean;
/**
 * Offered an event at `text[at]` (its first line) before any of its lines is searched for:
 * when it recognises there a one-data-line event (an optional `event:` line, then a `data:`
 * line, neither holding a CR) whose data line ends at some `end` followed by a blank line
 * (`eventEndsAt(text, end, named)`), it reads it and returns `end`; else -1, and the event is
 * split and offered as usual. Its match then stands for the split's searches of the line
 * ends, which cost about as much as the match itself.
 */
export type SseLineReader = (text: string, at: number) => number;

const LF = 0x0a;
const CR = 0x0d;
const STREAM = { stream: true } as const;
const SPACE = 0x20;

/**
 * Incremental SSE reader: push bytes as they arrive, `onEvent` fires per complete event.
 *
 * With a `SseDataReader`, the events most streams are made of (`data: ...`, after an
 * `event: ...` line or not, and a blank line, the lines ended by LF, or an unnamed event's by
 * CRLF as Gemini writes them) are split out here while the parser holds nothing, and offered in
 * place in the decoded text, without the parser's slices and event object per event. The first
 * thing that is not such an event, and all that follows it in the chunk, goes to
 * eventsource-parser as before; the split sees no more than the parser would.
 */
export class SseReader {
  private readonly utf8 = translateFastPath ? new Utf8Chunks() : new TextDecoder();
  private readonly parser: EventSourceParser;
  /** True when all text fed to the parser ended with a blank line: it holds no line and no event. */
  private parserIdle = true;
  private parserFed = false;
  /**
   * The chunk being read when its text has one character per byte, at the same indexes (no
   * character of several bytes, none carried from the chunk before, no byte-order mark), else
   * null: a line reader may read runs of events in its bytes (fast-path/text-run.ts).
   */
  bytes: Uint8Array | null = null;

  constructor(
    private readonly onEvent: SseHandler,
    private readonly onData: SseDataReader | null = null,
    private readonly onLine: SseLineReader | null = null,
  ) {
    this.parser = createParser({ onEvent: (m) => onEvent(m.event, m.data) });
  }

  push(chunk: Uint8Array): void {
    const utf8 = this.utf8;
    const text = utf8.decode(chunk, STREAM);
    this.bytes = text.length === chunk.length && utf8 instanceof Utf8Chunks && utf8.inPlace ? chunk : null;
    if (this.onData === null || !translateFastPath) {
      this.feed(text);
      return;
    }
    let from = 0;
    if (!this.parserIdle) {
      // The parser holds the start of an event: it gets the text up to the first blank line.
      from = blankLineEnd(text);
      if (from < 0) {
        this.feed(text);
        return;
      }
      this.feed(text.slice(0, from));
    }
    const rest = this.splitData(text, from);
    if (rest < text.length) this.feed(rest === 0 ? text : text.slice(rest));
  }

  /** Flush a trailing event that had no blank line after it. */
  end(): void {
    this.feed(this.utf8.decode() + '\n\n');
  }

  private feed(text: string): void {
    this.parser.feed(text);
    this.parserFed = true;
    this.parserIdle = endsWithBlankLine(text);
  }

  /** The parser drops a byte-order mark from the first text it is fed: this text, read in place, had none. */
  private fedOnce(): void {
    if (this.parserFed) return;
    this.parser.feed('');
    this.parserFed = true;
  }

  /** Reads the one-data-line events at `from` in `text`; returns where the rest starts. */
  private splitData(text: string, from: number): number {
    const onData = this.onData!;
    let at = from;
    // The first CR at or after `at` (-1: none), searched again only once passed, so a text
    // without CRs is searched once and one with CRLF events once per event.
    let cr = text.indexOf('\r', at);
    for (;;) {
      if (this.onLine !== null) {
        const end = this.onLine(text, at);
        if (end >= 0) {
          // Read, its lines free of CRs and ended as eventEndsAt checked: where the split
          // below would have gone on (CRLF CRLF only after an unnamed event).
          this.fedOnce();
          at = end + (text.charCodeAt(end) === LF ? 2 : 4);
          if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
          continue;
        }
      }
      let nameStart = -1;
      let nameEnd = -1;
      let line = at;
      if (isEventLine(text, at)) {
        const lf = text.indexOf('\n', at);
        if (lf < 0 || (cr >= 0 && cr < lf)) break; // unfinished, or a CR: a named event's ends are LFs here
        const start = text.charCodeAt(at + 6) === SPACE ? at + 7 : at + 6;
        if (start < lf) {
          // `event:` with nothing after it names nothing, as in the parser
          nameStart = start;
          nameEnd = lf;
        }
        line = lf + 1;
      }
      if (!isDataLine(text, line)) break;
      const lf = text.indexOf('\n', line);
      if (lf < 0) break; // unfinished
      let next: number;
      let lineEnd: number;
      if (cr < 0 || cr > lf) {
        if (text.charCodeAt(lf + 1) !== LF) break; // another line
        lineEnd = lf;
        next = lf + 2;
      } else if (line === at && cr === lf - 1 && text.charCodeAt(lf + 1) === CR && text.charCodeAt(lf + 2) === LF) {
        lineEnd = cr;
        next = lf + 3;
      } else break; // a CR inside the line (a line end of its own), another line, or a CRLF cut off
      this.fedOnce();
      const start = text.charCodeAt(line + 5) === SPACE ? line + 6 : line + 5;
      if (!onData(text, start, lineEnd, nameStart, nameEnd)) {
        this.onEvent(nameStart < 0 ? undefined : text.slice(nameStart, nameEnd), text.slice(start, lineEnd));
      }
      at = next;
      if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
    }
    return at;
  }
}

/**
 * Where the first blank line in `text` ends (-1: none), for a parser that holds part of an
 * event: the first `\n\n` or `\n\r\n`, since whatever the `\n` before it ends (a line, or a
 * CRLF whose CR the parser holds), what follows is an empty line.
 */
function blankLineEnd(text: string): number {
  const lf = text.indexOf('\n\n');
  const crlf = text.indexOf('\n\r\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf + 3;
  return lf < 0 ? -1 : lf + 2;
}

/**
 * `text` ends with an empty line ended by LF, so the parser fed it holds no line and no event:
 * `\n\n`, or `\r\n` after a line end (`\n\r\n`, `\r\r\n`). A text ending in a CR is not:
 * the parser waits to see whether an LF follows.
 */
function endsWithBlankLine(text: string): boolean {
  const n = text.length;
  if (n < 2 || text.charCodeAt(n - 1) !== LF) return false;
  const before = text.charCodeAt(n - 2);
  if (before === LF) return true;
  if (before !== CR || n < 3) return false;
  const third = text.charCodeAt(n - 3);
  return third === LF || third === CR;
}

/**
 * A data line that ends at `text[end]` ends its event there, as the split reads it: LF then a
 * blank line (LF), or, for an unnamed event (`named` false), CRLF then CRLF.
 */
export function eventEndsAt(text: string, end: number, named: boolean): boolean {
  const c = text.charCodeAt(end);
  if (c === LF) return text.charCodeAt(end + 1) === LF;
  return !named && c === CR && text.charCodeAt(end + 1) === LF && text.charCodeAt(end + 2) === CR && text.charCodeAt(end + 3) === LF;
}

/** Where the data of a `data:` line at `text[at]` starts (after `data:` and one space, if any), or -1. */
export function dataStart(text: string, at: number): number {
  if (!isDataLine(text, at)) return -1;
  return text.charCodeAt(at + 5) === SPACE ? at + 6 : at + 5;
}

/** `text` has a `data:` line at `at` (compared by character: faster than `startsWith` for five). */
function isDataLine(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x64 &&
    text.charCodeAt(at + 1) === 0x61 &&
    text.charCodeAt(at + 2) === 0x74 &&
    text.charCodeAt(at + 3) === 0x61 &&
    text.charCodeAt(at + 4) === 0x3a
  );
}

/** `text` has an `event:` line at `at`. */
function isEventLine(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x65 &&
    text.charCodeAt(at + 1) === 0x76 &&
    text.charCodeAt(at + 2) === 0x65 &&
    text.charCodeAt(at + 3) === 0x6e &&
    text.charCodeAt(at + 4) === 0x74 &&
    text.charCodeAt(at + 5) === 0x3a
  );
}

/**
 * TextDecoder's streaming decode (same text, U+FFFD for bad bytes, a leading byte-order mark
 * dropped) over Buffer's decoder: each call decodes the chunk up to its last whole character.
 */
export class Utf8Chunks {
  /** The bytes of a character the last chunk ended inside of (0 to 3). */
  private carry: Buffer | null = null;
  private first = true;
  /** The last chunk was decoded from its own bytes alone, none carried in and no byte-order mark dropped. */
  inPlace = false;

  decode(chunk?: Uint8Array, _opts?: { stream: boolean }): string {
    if (chunk === undefined) {
      // The end: a character left incomplete is one U+FFFD, as TextDecoder's flush gives.
      const rest = this.carry;
      this.carry = null;
      return rest === null ? '' : this.text(rest, rest.length, true);
    }
    let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.inPlace = this.carry === null;
    if (this.carry !== null) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = null;
    }
    const whole = wholeCharsEnd(buf);
    if (whole < buf.length) this.carry = Buffer.from(buf.subarray(whole));
    return this.text(buf, whole);
  }

  private text(buf: Buffer, end: number, final = false): string {
    if (end === 0) return '';
    if (this.first) {
      // TextDecoder drops a byte-order mark at the very start (once three bytes are there).
      if (end < 3 && buf[0] === 0xef && !final) {
        this.carry = this.carry === null ? Buffer.from(buf.subarray(0, end)) : Buffer.concat([buf.subarray(0, end), this.carry]);
        return '';
      }
      this.first = false;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        this.inPlace = false;
        return buf.toString('utf8', 3, end);
      }
    }
    return buf.toString('utf8', 0, end);
  }
}

/** Where the last character that is complete in `buf` ends (a lead byte whose tail is cut off starts the carry). */
function wholeCharsEnd(buf: Buffer): number {
  const n = buf.length;
  if (n === 0 || buf[n - 1]! < 0x80) return n;
  // Walk back over at most three continuation bytes to the lead byte.
  let i = n - 1;
  while (i > n - 4 && i > 0 && (buf[i]! & 0xc0) === 0x80) i--;
  const lead = buf[i]!;
  const need = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xc2 && lead <= 0xdf ? 2 : 1;
  return i + need > n ? i : n;
}

/** One SSE frame: `event:` line when named, then `data:`. `data` must not contain newlines (JSON.stringify never does). */
export function sseFrame(data: string, event?: string): string {
  return event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
}
