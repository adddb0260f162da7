// The binary AWS event stream (application/vnd.amazon.eventstream) that Bedrock's
// converse-stream speaks: frames of [total length u32][headers length u32][prelude CRC]
// [headers][payload][message CRC], big endian. @smithy/eventstream-codec is the reference
// reader and writer; the fast paths write the same bytes (./frame-writer.ts, with header bytes
// built here once per event type) and read the same messages with a faster CRC-32
// (./crc32.ts), decode a frame's header block and payload in one call, and hand any frame
// they do not fully recognise (a header that is not an ASCII string, a bad CRC) to the codec.
import { Buffer } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { EventStreamCodec, type Message, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../../errors.js';
import { translateFastPath } from '../fast-path/switch.js';
import { CRC32_START, Crc32Across, JS_MAX_BYTES, crc32, crc32Continue, crc32Final } from './crc32.js';
import { holdsAt } from '../fast-path/json-scan.js';
import { literalPattern } from '../fast-path/sticky-pattern.js';
import { FrameTemplate } from './frame-writer.js';

export type { Message } from '@smithy/eventstream-codec';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Prelude (8) + prelude CRC (4) + message CRC (4): the smallest frame there is. */
const MIN_FRAME_BYTES = 16;
/** AWS caps a payload at 16 MiB and headers at 128 KiB; anything longer is not a frame. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MIN_FRAME_BYTES;

function frameError(message: string): GatewayError {
  return new GatewayError('upstream_error', `bedrock event stream: ${message}`);
}

function checkedLength(total: number): number {
  if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) throw frameError(`frame length ${total} is out of range`);
  return total;
}

/** A frame as read: the codec's message, and its payload as text when the native reader had it. */
export interface EventFrame extends Message {
  /** The payload as `payloadText` gives it; undefined when only its bytes were read. */
  readonly payload: string | undefined;
}

export type FrameHandler = (frame: EventFrame) => void;

/**
 * Offered each frame whose CRCs the native reader checked, before its headers are read: the
 * header block `text[0, headersLength)` and the payload (a byte-order mark not dropped) as one
 * UTF-8 text. Where that block equals one the caller knows (ASCII), its characters are the
 * frame's bytes. True when the frame was read; false to have it handed to the `FrameHandler`.
 */
export type FrameTextReader = (text: string, headersLength: number, headersKnown: boolean) => boolean;

/**
 * The header block of the frames a reader's owner reads most (a stream's deltas): when a frame's
 * block equals it, the reader carries the message CRC across it in four table lookups instead
 * of summing its bytes, and tells the FrameTextReader (`headersKnown`). With the payloads the
 * owner reads in place (a pattern), the block and the payload are matched in one sticky
 * pattern, whole, so that the owner takes its values without comparing anything again.
 */
export class KnownHeaderBlock {
  readonly text: string;
  readonly across: Crc32Across;
  private readonly frame: RegExp | null;
  private readonly bytes: Buffer;

  /** The same frames, of characters below 0x80 only: matched in the chunk's latin1 text. */
  private readonly asciiFrame: RegExp | null;

  /**
   * `spans`: where a matched payload has constant runs of ASCII before and after its value,
   * which the message CRC is carried across instead of summed. `asciiPayloadPattern`: the
   * payload pattern's ASCII subset (SLOT_PATTERN's ascii variants), for frames read without
   * a UTF-8 decode (both with a payload pattern only).
   */
  constructor(
    eventType: string,
    payloadPattern?: string,
    readonly spans: PayloadSpans | null = null,
    asciiPayloadPattern?: string,
  ) {
    const bytes = eventHeaderBytes(eventType);
    this.bytes = bytes;
    this.text = bytes.toString('latin1');
    this.across = new Crc32Across(bytes);
    this.frame = payloadPattern === undefined ? null : new RegExp(`${literalPattern(this.text)}(?:${payloadPattern})$`, 'y');
    this.asciiFrame = asciiPayloadPattern === undefined ? null : new RegExp(`${literalPattern(this.text)}(?:${asciiPayloadPattern})$`, 'y');
  }

  /** True when frames may be matched in latin1 text (headsAscii). */
  get readsAscii(): boolean {
    return this.asciiFrame !== null;
  }

  /**
   * heads() for a frame's latin1 text (a character per byte): true only when the frame is one
   * of the payload shapes and every byte of it is below 0x80, so that the text is also its
   * UTF-8 decoding, character for character.
   */
  headsAscii(latin: string): boolean {
    const p = this.asciiFrame!;
    p.lastIndex = 0;
    return p.test(latin);
  }

  /** Carries a register across this block and then `payloadStart` (ASCII), the start of a payload. */
  acrossWith(payloadStart: string): Crc32Across {
    return new Crc32Across(Buffer.concat([this.bytes, Buffer.from(payloadStart, 'latin1')]));
  }

  /**
   * A frame's text (its header block, then its payload) starts with this block and, given a
   * payload pattern, has such a payload after it. The caller keeps the text under
   * PATTERN_MAX_CHARS.
   */
  heads(text: string): boolean {
    const p = this.frame;
    if (p === null) return holdsAt(text, 0, this.text);
    p.lastIndex = 0;
    return p.test(text);
  }
}

/**
 * The constant runs around the value of a frame a KnownHeaderBlock's pattern matched, set by
 * `read` for each such frame: the payload's first `prefixChars` characters (carried across,
 * with the header block, by `prefix`) and its last `suffixChars` (by `suffix`), each ASCII and
 * so its bytes one for one (a byte of 0x80 or more never decodes to ASCII). null and 0 where a
 * run is not constant (its bytes are then summed).
 */
export interface PayloadSpans {
  read(text: string, headersLength: number): void;
  prefix: Crc32Across | null;
  prefixChars: number;
  suffix: Crc32Across | null;
  suffixChars: number;
}

/**
 * Incremental frame reader. Whole frames inside a chunk are decoded in place; only a frame
 * split across chunks is copied, into a buffer of exactly its length once the length is known.
 * Bytes already decoded are never looked at again.
 */
export class EventStreamReader {
  private readonly lengthBytes = Buffer.alloc(4);
  /** The frame being assembled across chunks (null until its length is known). */
  private held: Buffer | null = null;
  /** Bytes of the split frame received so far (in lengthBytes while held is null). */
  private heldBytes = 0;
  /** The chunk `latin` was made from, while push reads it (see latinText). */
  private latinOf: Buffer | null = null;
  private latin = '';

  constructor(
    private readonly onFrame: FrameHandler,
    private readonly onFrameText: FrameTextReader | null = null,
    private readonly knownHeaders: KnownHeaderBlock | null = null,
  ) {}

  push(chunk: Uint8Array): void {
    let offset = this.heldBytes > 0 ? this.fill(chunk) : 0;
    if (this.heldBytes > 0) {
      // the whole chunk went into the split frame
      this.latinOf = null;
      this.latin = '';
      return;
    }
    const buf = asBuffer(chunk);
    while (buf.length - offset >= 4) {
      const total = checkedLength(buf.readUInt32BE(offset));
      if (buf.length - offset < total) break;
      this.emit(buf, offset, offset + total);
      offset += total;
    }
    this.latinOf = null; // the chunk's text is not kept past its push (a frame split off after it makes its own)
    this.latin = '';
    if (offset < buf.length) this.fill(buf.subarray(offset));
  }

  /**
   * (checkedFrameText's.) The text of `buf[start, end)` as latin1, a character per byte: sliced
   * from the whole chunk's, made once per chunk of several frames (one native call, no UTF-8
   * validation), where a frame's UTF-8 decode is a native call per frame.
   */
  latinText(buf: Buffer, start: number, end: number): string {
    // A chunk of one frame (an upstream that writes each event apart): its text alone.
    if (end - start + PRELUDE_BYTES + 4 === buf.length) return buf.toString('latin1', start, end);
    if (this.latinOf !== buf) {
      this.latin = buf.toString('latin1');
      this.latinOf = buf;
    }
    return this.latin.slice(start, end);
  }

  /** Upstream ended: a frame cut short is an error. */
  end(): void {
    if (this.heldBytes > 0) throw frameError('stream ended in the middle of a frame');
  }

  /** Adds bytes to the split frame; returns how many of `chunk` it took. */
  private fill(chunk: Uint8Array): number {
    let offset = 0;
    if (this.held === null) {
      offset = Math.min(4 - this.heldBytes, chunk.length);
      this.lengthBytes.set(chunk.subarray(0, offset), this.heldBytes);
      this.heldBytes += offset;
      if (this.heldBytes < 4) return offset;
      const total = checkedLength(this.lengthBytes.readUInt32BE(0));
      this.held = Buffer.allocUnsafe(total); // every byte is written before it is read
      this.held.set(this.lengthBytes, 0);
    }
    const n = Math.min(this.held.length - this.heldBytes, chunk.length - offset);
    this.held.set(chunk.subarray(offset, offset + n), this.heldBytes);
    this.heldBytes += n;
    offset += n;
    if (this.heldBytes === this.held.length) {
      const frame = this.held;
      this.held = null;
      this.heldBytes = 0;
      this.emit(frame, 0, frame.length);
    }
    return offset;
  }

  /** The frame `buf[start, end)`, whose length field is `end - start`. */
  private emit(buf: Buffer, start: number, end: number): void {
    if (translateFastPath) {
      const text = checkedFrameText(buf, start, end, this.knownHeaders, this);
      if (text !== null) {
        const headersLength = buf.readUInt32BE(start + 4);
        if (this.onFrameText !== null && this.onFrameText(text, headersLength, headersKnown)) return;
        const headers = knownHeaders(text, headersLength);
        if (headers !== null) {
          const bodyStart = start + PRELUDE_BYTES + headersLength;
          const body = new Uint8Array(buf.buffer, buf.byteOffset + bodyStart, end - 4 - bodyStart);
          this.onFrame({ headers, body, payload: withoutByteOrderMark(text.slice(headersLength)) });
          return;
        }
      }
    }
    let message: Message;
    try {
      message = codec.decode(buf.subarray(start, end));
    } catch (e) {
      // A CRC mismatch or a malformed header block: the frame cannot be trusted.
      throw frameError(`invalid frame: ${(e as Error).message}`);
    }
    this.onFrame({ headers: message.headers, body: message.body, payload: undefined });
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const utf8 = new TextDecoder();

/** A frame's payload as text: TextDecoder's (U+FFFD for bad bytes, a leading byte-order mark dropped). */
export function payloadText(frame: EventFrame): string {
  return frame.payload !== undefined ? frame.payload : utf8.decode(frame.body);
}

/** A header's string value ('' when absent or not a string). */
export function headerString(message: Message, name: string): string {
  const h = message.headers[name];
  return h !== undefined && h.type === 'string' ? h.value : '';
}

function stringHeader(value: string): { type: 'string'; value: string } {
  return { type: 'string', value };
}

const JSON_CONTENT = stringHeader('application/json');
const EVENT = stringHeader('event');
const EXCEPTION = stringHeader('exception');

/** One `:message-type event` frame with a JSON payload, as converse-stream sends it. */
export function encodeEventFrame(eventType: string, payloadJson: string): Uint8Array {
  let frames = framesByType.get(eventType);
  if (frames === undefined) framesByType.set(eventType, (frames = eventFrames(eventType)));
  return frames(payloadJson);
}
const framesByType = new Map<string, EventFrames>();

/** Frames of one event type whose payloads start alike: `(a, b)` is the frame of `start + a + b`. */
export type EventFrames = (a: string, b?: string) => Uint8Array;

/**
 * The `EventFrames` of one event type and payload start (made once, kept by whoever writes
 * them): the fast writer (./frame-writer.ts), or the codec when fast paths are off. The parts
 * are kept apart so a delta's literal is not concatenated into a new string first; no part may
 * split a surrogate pair.
 */
export function eventFrames(eventType: string, payloadStart = ''): EventFrames {
  if (!translateFastPath) {
    const headers: MessageHeaders = { ':event-type': stringHeader(eventType), ':content-type': JSON_CONTENT, ':message-type': EVENT };
    return (a, b = '') => codec.encode({ headers, body: fromUtf8(payloadStart + a + b) });
  }
  const template = eventFrameTemplate(eventType, payloadStart);
  return (a, b) => template.frame(a, b);
}

/** The fast writer's template for one event type and payload start (what `eventFrames` writes with). */
export function eventFrameTemplate(eventType: string, payloadStart = ''): FrameTemplate {
  const headerBytes = eventHeaderBytes(eventType);
  return new FrameTemplate(headerBytes.length, Buffer.concat([headerBytes, Buffer.from(payloadStart)]));
}

const PRELUDE_BYTES = 12;
const STRING_HEADER = 7;

/** The header block of an event frame, as the codec writes it, made once per event type. */
const eventHeaders = new Map<string, Buffer>();
function eventHeaderBytes(eventType: string): Buffer {
  let bytes = eventHeaders.get(eventType);
  if (bytes === undefined) {
    bytes = Buffer.concat([
      stringHeaderBytes(':event-type', eventType),
      stringHeaderBytes(':content-type', 'application/json'),
      stringHeaderBytes(':message-type', 'event'),
    ]);
    eventHeaders.set(eventType, bytes);
  }
  return bytes;
}

/** The header block of an event frame as text (ASCII for an ASCII event type): what `FrameTextReader` compares. */
export function eventHeaderText(eventType: string): string {
  return eventHeaderBytes(eventType).toString('latin1');
}

function stringHeaderBytes(name: string, value: string): Buffer {
  const n = Buffer.from(name);
  const v = Buffer.from(value);
  const out = Buffer.alloc(1 + n.length + 3 + v.length);
  out[0] = n.length;
  n.copy(out, 1);
  out[1 + n.length] = STRING_HEADER;
  out.writeUInt16BE(v.length, 2 + n.length);
  v.copy(out, 4 + n.length);
  return out;
}

/** Set by checkedFrameText: the frame it returned has the known header block. */
let headersKnown = false;

/**
 * The header block and payload of the frame `buf[start, end)` as one UTF-8 text (one native
 * decode), when its header length fits and both CRCs hold; null for anything else, which the
 * codec then reads (and reports). A block equal to `known` (ASCII, so its text is its bytes
 * one for one) is compared in the text, and the message CRC carried across it.
 */
function checkedFrameText(buf: Buffer, start: number, end: number, known: KnownHeaderBlock | null, reader: EventStreamReader): string | null {
  const headersLength = buf.readUInt32BE(start + 4);
  if (PRELUDE_BYTES + headersLength + 4 > end - start) return null;
  // The prelude's register is checked against its CRC, then carried over the CRC's four bytes:
  // the message CRC goes on from there instead of summing the prelude again.
  const preludeRegister = crc32Continue(CRC32_START, buf, start, start + 8);
  if (crc32Final(preludeRegister) !== buf.readUInt32BE(start + 8)) return null;
  const afterPrelude = crc32Continue(preludeRegister, buf, start + 8, start + PRELUDE_BYTES);
  const payloadStart = start + PRELUDE_BYTES + headersLength;
  const candidate = known !== null && headersLength === known.text.length && end - 4 - payloadStart <= JS_MAX_BYTES;
  let text: string | null = null;
  headersKnown = false;
  if (candidate && known!.readsAscii) {
    // A frame of ASCII bytes is its latin1 text: no UTF-8 decode of its own.
    const latin = reader.latinText(buf, start + PRELUDE_BYTES, end - 4);
    if (known!.headsAscii(latin)) {
      text = latin;
      headersKnown = true;
    }
  }
  if (text === null) {
    text = buf.toString('utf8', start + PRELUDE_BYTES, end - 4);
    headersKnown = candidate && known!.heads(text);
  }
  let sum: number;
  if (headersKnown) {
    const spans = known!.spans;
    if (spans === null) sum = crc32Final(crc32Continue(known!.across.register(afterPrelude), buf, payloadStart, end - 4));
    else {
      // The header block and the payload's constant start in one carry, its constant end in
      // another: only the value between them is summed.
      spans.read(text, headersLength);
      const prefix = spans.prefix;
      let register = prefix === null ? known!.across.register(afterPrelude) : prefix.register(afterPrelude);
      register = crc32Continue(register, buf, prefix === null ? payloadStart : payloadStart + spans.prefixChars, end - 4 - spans.suffixChars);
      if (spans.suffix !== null) register = spans.suffix.register(register);
      sum = crc32Final(register);
    }
  } else if (end - 4 - start > JS_MAX_BYTES)
    sum = crc32(buf, start, end - 4); // the native sum, for long frames
  else sum = crc32Final(crc32Continue(afterPrelude, buf, start + PRELUDE_BYTES, end - 4));
  return sum === buf.readUInt32BE(end - 4) ? text : null;
}

/** Header blocks already read, by their text: a stream's few other frames repeat theirs. */
const headersByBlock = new Map<string, MessageHeaders>();
/** Blocks kept at most (event types of a stream, and exceptions, are few). */
const MAX_KEPT_BLOCKS = 32;

/**
 * stringHeaders' answer for `text[0, headersLength)`, kept by the block's text, so that a
 * messageStart, contentBlockStop or metadata block is read once per worker rather than per
 * stream (one hash of the block instead of its walk). The object is shared: readers only read it.
 */
function knownHeaders(text: string, headersLength: number): MessageHeaders | null {
  if (headersLength > text.length) return null; // bytes beyond ASCII in the block
  const block = text.slice(0, headersLength);
  const kept = headersByBlock.get(block);
  if (kept !== undefined) return kept;
  const headers = stringHeaders(text, headersLength);
  // Kept under a copy of the block (ASCII, as stringHeaders found it): the slice would keep
  // the frame's whole text alive.
  if (headers !== null && headersByBlock.size < MAX_KEPT_BLOCKS) headersByBlock.set(Buffer.from(block, 'latin1').toString('latin1'), Object.freeze(headers));
  return headers;
}

/**
 * The headers in `text[0, headersLength)` read as the codec reads them (the same object), when
 * they are all strings of ASCII names and values; null for anything else. Every character of
 * the block is checked to be below 0x80 (lengths, type bytes, names, values): the first byte
 * that is not ASCII would be such a character at its own offset, so a block that passes is
 * its bytes one for one.
 */
function stringHeaders(text: string, headersLength: number): MessageHeaders | null {
  if (headersLength > text.length) return null; // bytes beyond ASCII in the block
  const headers: MessageHeaders = {};
  let at = 0;
  while (at < headersLength) {
    const nameLength = text.charCodeAt(at);
    const nameEnd = at + 1 + nameLength;
    if (nameLength > 0x7f || nameEnd + 3 > headersLength || text.charCodeAt(nameEnd) !== STRING_HEADER) return null;
    const high = text.charCodeAt(nameEnd + 1);
    const low = text.charCodeAt(nameEnd + 2);
    if (high > 0x7f || low > 0x7f) return null; // a value of 128 bytes or more: the codec reads it
    const valueStart = nameEnd + 3;
    const valueEnd = valueStart + ((high << 8) | low);
    if (valueEnd > headersLength) return null;
    const name = text.slice(at + 1, nameEnd);
    const value = text.slice(valueStart, valueEnd);
    if (!ascii(name) || !ascii(value)) return null; // UTF-8 beyond ASCII: the codec decodes it
    headers[name] = { type: 'string', value };
    at = valueEnd;
  }
  return headers;
}

/** TextDecoder drops a leading byte-order mark; Buffer's decoder keeps it. */
function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** One `:message-type exception` frame; the AWS SDK raises `:exception-type` as the error's name. */
export function encodeExceptionFrame(exceptionType: string, message: string): Uint8Array {
  const headers: MessageHeaders = { ':exception-type': stringHeader(exceptionType), ':content-type': JSON_CONTENT, ':message-type': EXCEPTION };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ message })) });
}

/** True when every character is below 0x80 (one byte each in UTF-8). */
function ascii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}
