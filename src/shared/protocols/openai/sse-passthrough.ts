// A same-protocol SSE stream on its way back to the caller (Chat Completions and Responses):
// the bytes go out as they came, while frames that carry a usage object are read for metering,
// and (Chat Completions only) the usage-only chunk the caller did not ask for is cut out.
//
// Works on bytes: frame ends (a blank line, LF or CRLF) are found with Buffer.indexOf, and only
// frames holding `"usage"` followed by an object are decoded and parsed. Only the unfinished
// last frame is held between chunks (as a list of copies, joined once when it completes), so no
// byte is scanned twice. A frame that outgrows MAX_HELD_FRAME_BYTES cannot be a usage chunk; it
// is passed through unread.
import { Buffer } from 'node:buffer';
import type { Usage } from '../../model/types.js';
import type { PassthroughBytes, PassthroughStream } from '../codec.js';
import { isJsonObject, type JsonObject } from '../framing/json-field.js';
import { eventData, type EventShape } from '../framing/event-shape.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const USAGE_KEY = Buffer.from('"usage"');
export const MAX_HELD_FRAME_BYTES = 1 << 20;

/** What a protocol reports as usage in one event's parsed data, or null. */
export type UsageOf = (data: JsonObject) => Usage | null;
/** Whether an event (already known to carry usage) is to be cut from the caller's stream. */
export type IsDroppable = (data: JsonObject) => boolean;

export class SsePassthroughStream implements PassthroughStream {
  /** Copies of the unfinished frame's bytes seen so far. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The current frame outgrew the cap: its bytes pass through unread until it ends. */
  private oversize = false;
  /** A frame end begun in the previous chunk: 1 after a trailing LF, 2 after a trailing LF CR. */
  private pendingEnd = 0;
  private last: Usage | null = null;
  private scanBytes: Buffer | null = null;
  private scanFrom = 0;
  private scanAt = -1;

  constructor(
    private readonly usageOf: UsageOf,
    private readonly isDroppable: IsDroppable | null,
    /** The lane's usage event shape (its events are parsed when null). */
    private readonly shape: EventShape | null = null,
  ) {}

  usage(): Usage | null {
    return this.last;
  }

  push(chunk: Uint8Array): PassthroughBytes {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out = this.pushFrames(chunk, buf);
    return out === null ? this.pushChunk(chunk) : out;
  }

  /** Frame by frame: the general path (CRLF framing, a blank line split across chunks, oversize frames). */
  private pushChunk(chunk: Uint8Array): Uint8Array | string {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const dropping = this.isDroppable !== null;
    let prior: Buffer[] | null = this.heldBytes > 0 ? this.held : null;
    let segments: Uint8Array[] | null = null;
    let emitFrom = 0;
    let start = 0;
    for (;;) {
      const end = this.frameEnd(buf, start);
      if (end === -1) break;
      if (this.oversize) {
        this.oversize = false; // its last bytes go out with the rest of the chunk
      } else {
        const keep = this.readFrame(prior, buf, start, end);
        if (dropping) {
          if (prior !== null) {
            segments ??= [];
            if (keep) segments.push(...prior);
            else emitFrom = end;
          } else if (!keep) {
            segments ??= [];
            if (start > emitFrom) segments.push(buf.subarray(emitFrom, start));
            emitFrom = end;
          }
        }
      }
      if (prior !== null) this.clearHeld();
      prior = null;
      start = end;
    }

    let emitEnd = buf.length;
    if (!this.oversize && start < buf.length) {
      if (this.heldBytes + buf.length - start > MAX_HELD_FRAME_BYTES) {
        // Too big to be a usage chunk: release what was held (prior is set only when no
        // frame ended in this chunk, so it comes right before buf[0]) and pass the rest.
        this.oversize = true;
        if (dropping && prior !== null) (segments ??= []).push(...prior);
        this.clearHeld();
      } else {
        this.held.push(Buffer.from(buf.subarray(start))); // copy: the caller may reuse the chunk
        this.heldBytes += buf.length - start;
        emitEnd = start;
      }
    }
    this.scanBytes = null;
    if (!dropping) return chunk;
    if (segments === null && emitFrom === 0 && emitEnd === buf.length) return chunk;
    if (emitEnd > emitFrom) (segments ??= []).push(buf.subarray(emitFrom, emitEnd));
    if (segments === null || segments.length === 0) return '';
    return segments.length === 1 ? segments[0]! : Buffer.concat(segments);
  }

  /**
   * The common chunk, handled with a few native searches instead of frame by frame: LF framing,
   * no blank line split across chunks, no oversize frame. It is cut in three: the end of a
   * frame held from the chunk before, the whole frames, and an unfinished last frame (held).
   * In the whole frames only the LAST `"usage":` matters, found by searching back from their
   * end: a stream's usage report is its last usage-carrying event (the usage-only chunk before
   * `[DONE]`, `response.completed`), and running totals before it are superseded by it.
   * Returns null when the chunk needs the frame-by-frame path. The bytes go out as views of
   * the chunk (parts written in one send), never as a copy of it.
   */
  private pushFrames(chunk: Uint8Array, buf: Buffer): PassthroughBytes | null {
    if (this.pendingEnd !== 0 || this.oversize || buf.indexOf(CR) !== -1) return null;
    // Without anything to cut, every byte goes out as it came (held bytes were sent already
    // and are kept only to be read); with cutting, a held frame was withheld until complete.
    const dropping = this.isDroppable !== null;
    let parts: Uint8Array[] | null = null;
    let pos = 0;
    if (this.heldBytes !== 0) {
      const firstEnd = buf.indexOf(BLANK_LINE);
      if (firstEnd === -1) return null;
      pos = firstEnd + 2;
      const frame = Buffer.concat([...this.held, buf.subarray(0, pos)]);
      this.clearHeld();
      const keep = this.readFrame(null, frame, 0, frame.length);
      parts = keep ? [frame] : [];
    }
    const lastBlank = buf.lastIndexOf(BLANK_LINE);
    const wholeEnd = lastBlank !== -1 && lastBlank + 2 > pos ? lastBlank + 2 : pos;
    let cutStart = -1;
    let cutEnd = -1;
    if (wholeEnd > pos) {
      const at = buf.lastIndexOf(USAGE_KEY_COLON, wholeEnd - 1);
      if (at >= pos && buf[skipBlank(buf, at + USAGE_KEY_COLON.length, wholeEnd)] === OPEN_BRACE) {
        const before = buf.lastIndexOf(BLANK_LINE, at);
        const start = before === -1 || before + 2 < pos ? pos : before + 2;
        const end = buf.indexOf(BLANK_LINE, at) + 2;
        if (!this.readFrame(null, buf, start, end)) {
          cutStart = start;
          cutEnd = end;
        }
        this.scanBytes = null;
      }
    }
    let tailPassesUnread = false;
    if (wholeEnd < buf.length) {
      const tail = buf.subarray(wholeEnd);
      if (tail.length > MAX_HELD_FRAME_BYTES) {
        this.oversize = true; // too big to be a usage chunk: it passes through unread until it ends
        tailPassesUnread = true;
      } else {
        this.held.push(Buffer.from(tail)); // copy: the caller may reuse the chunk
        this.heldBytes = tail.length;
        // A tail ending in LF may be the first half of a blank line split across chunks.
        if (tail[tail.length - 1] === LF) this.pendingEnd = 1;
      }
    }
    if (!dropping) return chunk;
    if (parts === null && cutStart === -1 && wholeEnd === buf.length) return chunk; // the usual case: untouched
    parts ??= [];
    if (cutStart === -1) {
      if (wholeEnd > pos) parts.push(buf.subarray(pos, wholeEnd));
    } else {
      if (cutStart > pos) parts.push(buf.subarray(pos, cutStart));
      if (wholeEnd > cutEnd) parts.push(buf.subarray(cutEnd, wholeEnd));
    }
    if (tailPassesUnread) parts.push(buf.subarray(wholeEnd));
    if (parts.length === 0) return '';
    return parts.length === 1 ? parts[0]! : parts;
  }

  /** Upstream ended: an unfinished last frame (no blank line after it) is read and released. */
  end(): Uint8Array | string {
    if (this.heldBytes === 0) return '';
    const bytes = Buffer.concat(this.held);
    this.clearHeld();
    const keep = this.readFrame(null, bytes, 0, bytes.length);
    return keep || this.isDroppable === null ? bytes : '';
  }

  private clearHeld(): void {
    this.held = [];
    this.heldBytes = 0;
  }

  /** Index just past the next frame end at or after `from`, or -1 (then `pendingEnd` notes a partial end). */
  private frameEnd(buf: Buffer, from: number): number {
    if (from >= buf.length) return -1; // nothing new: a pending end stays pending
    if (from === 0 && this.pendingEnd !== 0) {
      const pending = this.pendingEnd;
      this.pendingEnd = 0;
      if (buf[0] === LF) return 1;
      if (pending === 1 && buf[0] === CR) {
        if (buf.length === 1) {
          this.pendingEnd = 2;
          return -1;
        }
        if (buf[1] === LF) return 2;
      }
    }
    let i = from;
    for (;;) {
      const nl = buf.indexOf(LF, i);
      if (nl === -1) return -1;
      if (nl + 1 === buf.length) {
        this.pendingEnd = 1;
        return -1;
      }
      const next = buf[nl + 1];
      if (next === LF) return nl + 2;
      if (next === CR) {
        if (nl + 2 === buf.length) {
          this.pendingEnd = 2;
          return -1;
        }
        if (buf[nl + 2] === LF) return nl + 3;
      }
      i = nl + 1;
    }
  }

  /** Meter a complete frame; returns whether it stays in the caller's stream. */
  private readFrame(prior: Buffer[] | null, buf: Buffer, start: number, end: number): boolean {
    let bytes = buf;
    let s = start;
    let e = end;
    if (prior !== null) {
      bytes = Buffer.concat([...prior, buf.subarray(start, end)]);
      s = 0;
      e = bytes.length;
    }
    if (!this.hasUsageObject(bytes, s, e)) return true;
    let data: unknown;
    try {
      const frame = bytes.toString('utf8', s, e);
      data = this.shape !== null ? this.shape.parse(frame) : JSON.parse(eventData(frame));
    } catch {
      return true; // not ours to judge: the caller gets the bytes as they came
    }
    if (!isJsonObject(data)) return true;
    const usage = this.usageOf(data);
    if (usage === null) return true;
    this.last = usage;
    return this.isDroppable === null || !this.isDroppable(data);
  }

  /** Whether bytes[s, e) hold `"usage"` followed by `:` and an object (not `"usage":null`). */
  private hasUsageObject(bytes: Buffer, s: number, e: number): boolean {
    let at = this.usageKeyAt(bytes, s);
    while (at !== -1 && at < e) {
      let j = skipBlank(bytes, at + USAGE_KEY.length, e);
      if (bytes[j] === COLON) {
        j = skipBlank(bytes, j + 1, e);
        if (bytes[j] === OPEN_BRACE) return true;
      }
      at = this.usageKeyAt(bytes, at + USAGE_KEY.length);
    }
    return false;
  }

  /**
   * Next `"usage"` at or after `from`. indexOf cannot stop at a frame's end, so its answer is
   * kept: the later frames of the same chunk reuse it instead of searching the tail again.
   */
  private usageKeyAt(bytes: Buffer, from: number): number {
    if (bytes === this.scanBytes && from >= this.scanFrom && (this.scanAt === -1 || this.scanAt >= from)) return this.scanAt;
    this.scanBytes = bytes;
    this.scanFrom = from;
    this.scanAt = bytes.indexOf(USAGE_KEY, from);
    return this.scanAt;
  }
}

const BLANK_LINE = Buffer.from('\n\n');

const USAGE_KEY_COLON = Buffer.from('"usage":');

function skipBlank(bytes: Buffer, j: number, e: number): number {
  while (j < e && (bytes[j] === SPACE || bytes[j] === TAB || bytes[j] === LF || bytes[j] === CR)) j++;
  return j;
}
