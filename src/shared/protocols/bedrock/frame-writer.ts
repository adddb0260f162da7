// Event frames written the cheap way: the bytes `EventStreamCodec.encode` writes for an event
// frame with a JSON payload, put straight into a shared slab with JavaScript stores. Per frame
// the old writer paid several native calls (Buffer.byteLength, allocUnsafe, the header copy,
// utf8Write, writeUInt32BE) for frames of about 130 bytes; here a short payload is UTF-8
// encoded by a loop, the constant header block (and a delta's constant payload start) is
// copied by TypedArray#set, and only a payload of more than 256 characters calls into node.
import { Buffer } from 'node:buffer';
import type { TextRunEvent } from '../../model/types.js';
import { CRC32_START, Crc32Across, crc32Continue, crc32Copy, crc32Final } from './crc32.js';

/** Prelude: total length, headers length, prelude CRC (4 bytes each). */
const PRELUDE_BYTES = 12;
const MESSAGE_CRC_BYTES = 4;
/** Frames are carved, never rewritten, out of slabs of this size, as Buffer's own pool does. */
const SLAB_BYTES = 16 * 1024;
/** Text longer than this is encoded by Buffer#write (one native call beats the loop there). */
const LOOP_MAX_CHARS = 256;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
/** The slab's ArrayBuffer and offset, kept: `buffer` is a getter that calls into V8 (C++). */
let slabBuffer = slab.buffer;
let slabOffset = slab.byteOffset;
let slabUsed = 0;

/** Room for `bytes` at `slabUsed`: a fresh slab when the current one has too little left. */
function reserve(bytes: number): void {
  if (SLAB_BYTES - slabUsed >= bytes) return;
  slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, bytes));
  slabBuffer = slab.buffer;
  slabOffset = slab.byteOffset;
  slabUsed = 0;
}

/**
 * What every frame of one kind starts with after its prelude: the event type's header block,
 * then a constant start of the payload (a delta's `{"contentBlockIndex":N,"delta":{"text":`).
 * Its bytes are copied, not encoded, and the message CRC is carried across them in four
 * lookups (CRC state depends on the prelude before them, so their CRC cannot simply be cached).
 */
export class FrameTemplate {
  private readonly bytes: Uint8Array;
  private readonly crc: Crc32Across;

  constructor(
    private readonly headersLength: number,
    headersAndPayloadStart: Uint8Array,
  ) {
    this.bytes = headersAndPayloadStart;
    this.crc = new Crc32Across(headersAndPayloadStart);
  }

  /** The frame whose payload is the template's start, then `a + b` (UTF-8), without building that string. */
  frame(a: string, b = ''): Uint8Array {
    const restStart = PRELUDE_BYTES + this.bytes.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    reserve(restStart + 3 * (a.length + b.length) + MESSAGE_CRC_BYTES);
    const buf = slab;
    const start = slabUsed;
    let at = writeUtf8(buf, start + restStart, a);
    if (b.length > 0) at = writeUtf8(buf, at, b);
    const end = at + MESSAGE_CRC_BYTES;
    let crc = this.writeStart(buf, start, end - start);
    crc = crc32Continue(crc, buf, start + restStart, at);
    writeUint32(buf, at, crc32Final(crc));
    slabUsed = end;
    return new Uint8Array(slabBuffer, slabOffset + start, end - start);
  }

  /**
   * A frame's start at `buf[start]`, the frame `frameBytes` long: its prelude and the template's
   * bytes. Returns the message CRC's register after them: the prelude's register gives its CRC,
   * then goes on over those four bytes into the message CRC (the prelude is not summed twice).
   */
  private writeStart(buf: Uint8Array, start: number, frameBytes: number): number {
    writeUint32(buf, start, frameBytes);
    writeUint32(buf, start + 4, this.headersLength);
    let crc = crc32Continue(CRC32_START, buf, start, start + 8);
    writeUint32(buf, start + 8, crc32Final(crc));
    crc = crc32Continue(crc, buf, start + 8, start + PRELUDE_BYTES);
    buf.set(this.bytes, start + PRELUDE_BYTES);
    return this.crc.register(crc);
  }

  /**
   * The frames of a text run (fast-path/text-run.ts): each of the run's events gives one frame,
   * the template's start, then the event's literal and `tail` copied as bytes (a run's literals
   * are printable ASCII without a backslash: the bytes `frame(literal, tail)` writes), with no
   * string made for either. The frames lie side by side in one slab: one view over them all.
   */
  runFrames(run: TextRunEvent, tail: Uint8Array): Uint8Array {
    const src = run.bytes;
    const n = src.length;
    const head = run.head.length;
    const skip = head + run.tail.length;
    const restStart = PRELUDE_BYTES + this.bytes.length;
    // A run's events are at least skip + 2 bytes each (the literal's quotes), so there are at most
    // n / (skip + 2) frames, and their literals are at most n bytes in all.
    const frames = Math.ceil(n / (skip + 2));
    reserve(n + frames * (restStart + tail.length + MESSAGE_CRC_BYTES));
    const buf = slab;
    const first = slabUsed;
    let start = first;
    let at = 0;
    while (at < n) {
      let literal = at + head;
      if (run.slot > 0) literal += digitsAt(src, at + run.slot);
      let close = literal + 1;
      while (src[close] !== QUOTE) close++;
      const rest = start + restStart;
      const end = rest + close + 1 - literal + tail.length;
      let crc = this.writeStart(buf, start, end + MESSAGE_CRC_BYTES - start);
      crc = crc32Copy(crc, src, literal, close + 1, buf, rest);
      crc = crc32Copy(crc, tail, 0, tail.length, buf, end - tail.length);
      writeUint32(buf, end, crc32Final(crc));
      start = end + MESSAGE_CRC_BYTES;
      at = close + 1 + run.tail.length;
    }
    slabUsed = start;
    return new Uint8Array(slabBuffer, slabOffset + first, start - first);
  }
}

const QUOTE = 0x22;

/** The length of the digits at `bytes[at]` (a run's integer slot: the module checked its form). */
function digitsAt(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && bytes[i]! >= 0x30 && bytes[i]! <= 0x39) i++;
  return i - at;
}

function writeUint32(buf: Uint8Array, at: number, value: number): void {
  buf[at] = value >>> 24;
  buf[at + 1] = value >>> 16;
  buf[at + 2] = value >>> 8;
  buf[at + 3] = value;
}

/**
 * Writes `s` as UTF-8 at `at` (room checked by the caller), as Buffer does it (a lone
 * surrogate becomes U+FFFD); returns the offset after it.
 */
function writeUtf8(buf: Buffer, at: number, s: string): number {
  const n = s.length;
  if (n > LOOP_MAX_CHARS) return at + buf.write(s, at, 'utf8');
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      buf[at++] = c;
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if ((c & 0xf800) !== 0xd800) {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && (next & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        buf[at++] = 0xf0 | (c >> 18);
        buf[at++] = 0x80 | ((c >> 12) & 0x3f);
        buf[at++] = 0x80 | ((c >> 6) & 0x3f);
        buf[at++] = 0x80 | (c & 0x3f);
      } else {
        buf[at++] = 0xef; // a lone surrogate: U+FFFD
        buf[at++] = 0xbf;
        buf[at++] = 0xbd;
      }
    }
  }
  return at;
}
