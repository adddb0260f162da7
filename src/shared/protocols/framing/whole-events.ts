// A same-protocol stream reaches the caller in whole events only. Upstream chunks end
// anywhere, often in the middle of an event; relayed as they come, a failure after such a
// chunk would put the gateway's error event right after half an event, and the caller's SDK
// would then raise a JSON parse error instead of its own API error
// (docs/decisions/064-whole-events-passthrough.md). So the unfinished tail of each chunk is held back until the rest of its event
// arrives; an error ending simply never writes it. The wrapped stream still sees every byte
// (metering). Bounded: a tail longer than HELD_BYTES_MAX is released as is.
import { Buffer } from 'node:buffer';
import type { PassthroughBytes, PassthroughStream } from '../codec.js';

export const HELD_BYTES_MAX = 1 << 20;

/** Where a framing's events end (one stateless instance per framing, or one per stream). */
export interface EventEnds {
  /**
   * The index in `buf` just past the last event end in it, or -1 when no event ends in it.
   * `held` is the unfinished tail before it (for an end split across chunks).
   */
  ends(buf: Buffer, held: readonly Buffer[]): number;
}

const LF = 0x0a;
const CR = 0x0d;
const LF_LF = Buffer.from('\n\n');
const CRLF_CRLF = Buffer.from('\r\n\r\n');

function lastByte(held: readonly Buffer[], back: number): number {
  for (let i = held.length - 1; i >= 0; i--) {
    const b = held[i]!;
    if (back < b.length) return b[b.length - 1 - back]!;
    back -= b.length;
  }
  return -1;
}

/** SSE: an event ends with a blank line (LF LF, or CR LF CR LF). */
export const sseEventEnds: EventEnds = { ends: sseEnds };
function sseEnds(buf: Buffer, held: readonly Buffer[]): number {
  // The usual chunk ends exactly where an event ends: no search.
  const n = buf.length;
  if (n >= 2 && buf[n - 1] === LF && (buf[n - 2] === LF || (n >= 4 && buf[n - 2] === CR && buf[n - 3] === LF && buf[n - 4] === CR))) return n;
  const lf = buf.lastIndexOf(LF_LF);
  const crlf = buf.lastIndexOf(CRLF_CRLF);
  const end = Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 4);
  if (end !== -1) return end;
  // A blank line split across chunks: `\n` | `\n`, `\r\n\r` | `\n`, `\r\n` | `\r\n`, `\r\n` | ... (3 bytes).
  if (buf[0] === LF && lastByte(held, 0) === LF) return 1;
  if (buf[0] === LF && lastByte(held, 0) === CR && lastByte(held, 1) === LF && lastByte(held, 2) === CR) return 1;
  if (buf[0] === CR && buf[1] === LF && lastByte(held, 0) === LF && lastByte(held, 1) === CR) return 2;
  return -1;
}

/** NDJSON: an event is a line. */
export const ndjsonEventEnds: EventEnds = {
  ends(buf: Buffer): number {
    if (buf.length > 0 && buf[buf.length - 1] === LF) return buf.length;
    const nl = buf.lastIndexOf(LF);
    return nl === -1 ? -1 : nl + 1;
  },
};

/** The AWS event stream: each frame starts with its total length (uint32, big endian). One per stream. */
export class EventStreamFrameEnds implements EventEnds {
  /** Bytes of the current frame still to come, once its length is known. */
  private frameLeft = 0;
  private readonly prelude = Buffer.alloc(4);
  private preludeHave = 0;
  /** A frame length no event stream has: stop holding (the bytes pass as they come). */
  private broken = false;

  ends(buf: Buffer): number {
    if (this.broken) return buf.length;
    let i = 0;
    let last = -1;
    while (i < buf.length) {
      if (this.frameLeft === 0) {
        const take = Math.min(4 - this.preludeHave, buf.length - i);
        buf.copy(this.prelude, this.preludeHave, i, i + take);
        this.preludeHave += take;
        i += take;
        if (this.preludeHave < 4) break;
        this.preludeHave = 0;
        const total = this.prelude.readUInt32BE(0);
        if (total < 16) {
          this.broken = true;
          return buf.length;
        }
        this.frameLeft = total - 4;
      }
      const take = Math.min(this.frameLeft, buf.length - i);
      this.frameLeft -= take;
      i += take;
      if (this.frameLeft === 0) last = i;
    }
    return last;
  }
}

function asBuffers(out: PassthroughBytes): Uint8Array[] {
  if (typeof out === 'string') return out.length === 0 ? [] : [Buffer.from(out)];
  return out instanceof Uint8Array ? [out] : [...out];
}

export class WholeEventsPassthrough implements PassthroughStream {
  /** The unfinished tail: copies, in order, joined only when written. */
  private held: Buffer[] = [];
  private heldBytes = 0;

  constructor(
    private readonly inner: PassthroughStream,
    private readonly eventEnds: EventEnds,
  ) {}

  push(chunk: Uint8Array): PassthroughBytes {
    const out = this.inner.push(chunk);
    if (out !== chunk) {
      // The inner stream cut something out, and it withholds unfinished events itself.
      if (this.heldBytes === 0) return out;
      const parts = [...this.held, ...asBuffers(out)];
      this.clear();
      return parts;
    }
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const end = this.heldBytes + buf.length > HELD_BYTES_MAX ? buf.length : this.eventEnds.ends(buf, this.held);
    if (end === -1) {
      this.held.push(Buffer.from(buf)); // copy: the caller may reuse the chunk
      this.heldBytes += buf.length;
      return '';
    }
    const whole = end === buf.length ? buf : buf.subarray(0, end);
    const written: PassthroughBytes = this.heldBytes === 0 ? (end === buf.length ? chunk : whole) : [...this.held, whole];
    this.clear();
    if (end < buf.length) {
      this.held.push(Buffer.from(buf.subarray(end)));
      this.heldBytes = buf.length - end;
    }
    return written;
  }

  /** Upstream ended: a last event without its end goes out as it came. */
  end(): Uint8Array | string {
    const last = this.inner.end();
    if (this.heldBytes === 0) return last;
    const parts = [...this.held];
    if (last.length > 0) parts.push(typeof last === 'string' ? Buffer.from(last) : Buffer.from(last.buffer, last.byteOffset, last.byteLength));
    this.clear();
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  usage(): ReturnType<PassthroughStream['usage']> {
    return this.inner.usage();
  }

  private clear(): void {
    if (this.heldBytes === 0) return;
    this.held = [];
    this.heldBytes = 0;
  }
}
