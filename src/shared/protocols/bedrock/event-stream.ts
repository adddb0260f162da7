// The binary AWS event stream (application/vnd.amazon.eventstream) that Bedrock's
// converse-stream speaks: frames of [total length u32][headers length u32][prelude CRC]
// [headers][payload][message CRC], big endian. @smithy/eventstream-codec is the reference
// reader and writer; the fast paths below write the same bytes and read the same messages with
// node's native CRC-32 (zlib.crc32) and header bytes built once per event type, and hand any
// frame they do not fully recognise (a header that is not a string, a bad CRC) to the codec.
import * as zlib from 'node:zlib';
import { EventStreamCodec, type Message, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../../errors.js';
import { translateFastPath } from '../fast-path/switch.js';

/** Native CRC-32 (node 20.15+ and 22.2+); without it the codec does all the work. */
const crc32: ((data: Uint8Array) => number) | undefined = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const fastFrames = translateFastPath && typeof crc32 === 'function';

export type { Message } from '@smithy/eventstream-codec';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Prelude (8) + prelude CRC (4) + message CRC (4): the smallest frame there is. */
const MIN_FRAME_BYTES = 16;
/** AWS caps a payload at 16 MiB and headers at 128 KiB; anything longer is not a frame. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MIN_FRAME_BYTES;

function frameError(message: string): GatewayError {
  return new GatewayError('upstream_error', `bedrock event stream: ${message}`);
}

function checkedLength(total: number): number {
  if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) throw frameError(`frame length ${total} is out of range`);
  return total;
}

/**
 * Incremental frame reader. Whole frames inside a chunk are decoded in place; only a frame
 * split across chunks is copied, into a buffer of exactly its length once the length is known.
 * Bytes already decoded are never looked at again.
 */
export class EventStreamReader {
  private readonly lengthBytes = new Uint8Array(4);
  /** The frame being assembled across chunks (null until its length is known). */
  private held: Uint8Array | null = null;
  /** Bytes of the split frame received so far (in lengthBytes while held is null). */
  private heldBytes = 0;

  constructor(private readonly onMessage: (message: Message) => void) {}

  push(chunk: Uint8Array): void {
    let offset = this.heldBytes > 0 ? this.fill(chunk) : 0;
    if (this.heldBytes > 0) return; // the whole chunk went into the split frame
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (chunk.length - offset >= 4) {
      const total = checkedLength(view.getUint32(offset, false));
      if (chunk.length - offset < total) break;
      this.emit(chunk.subarray(offset, offset + total));
      offset += total;
    }
    if (offset < chunk.length) this.fill(chunk.subarray(offset));
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
      const total = checkedLength(new DataView(this.lengthBytes.buffer).getUint32(0, false));
      this.held = new Uint8Array(total);
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
      this.emit(frame);
    }
    return offset;
  }

  private emit(frame: Uint8Array): void {
    let message: Message | null = fastFrames ? decodeStringFrame(frame) : null;
    if (message !== null) {
      this.onMessage(message);
      return;
    }
    try {
      message = codec.decode(frame);
    } catch (e) {
      // A CRC mismatch or a malformed header block: the frame cannot be trusted.
      throw frameError(`invalid frame: ${(e as Error).message}`);
    }
    this.onMessage(message);
  }
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
  if (fastFrames) return encodeFrame(eventHeaderBytes(eventType), payloadJson);
  const headers: MessageHeaders = { ':event-type': stringHeader(eventType), ':content-type': JSON_CONTENT, ':message-type': EVENT };
  return codec.encode({ headers, body: fromUtf8(payloadJson) });
}

const PRELUDE_BYTES = 12;
const STRING_HEADER = 7;

/** The header block of an event frame, as the codec writes it, made once per event type. */
const eventHeaders = new Map<string, Buffer>();
function eventHeaderBytes(eventType: string): Buffer {
  let bytes = eventHeaders.get(eventType);
  if (bytes === undefined) {
    bytes = Buffer.concat([stringHeaderBytes(':event-type', eventType), stringHeaderBytes(':content-type', 'application/json'), stringHeaderBytes(':message-type', 'event')]);
    eventHeaders.set(eventType, bytes);
  }
  return bytes;
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

/** The codec's frame layout, its two CRC-32s computed natively. */
function encodeFrame(headers: Buffer, payload: string): Uint8Array {
  const payloadBytes = Buffer.byteLength(payload);
  const length = PRELUDE_BYTES + headers.length + payloadBytes + 4;
  const out = Buffer.allocUnsafe(length);
  out.writeUInt32BE(length, 0);
  out.writeUInt32BE(headers.length, 4);
  out.writeUInt32BE(crc32!(out.subarray(0, 8)), 8);
  headers.copy(out, PRELUDE_BYTES);
  out.write(payload, PRELUDE_BYTES + headers.length, payloadBytes, 'utf8');
  out.writeUInt32BE(crc32!(out.subarray(0, length - 4)), length - 4);
  return out;
}

/**
 * A whole frame whose CRCs hold and whose headers are all strings, read as the codec reads it
 * (the same header object, the payload a view of the frame); null for anything else, which the
 * codec then reads (and reports).
 */
function decodeStringFrame(frame: Uint8Array): Message | null {
  const buf = Buffer.isBuffer(frame) ? frame : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  const length = buf.length;
  if (length < MIN_FRAME_BYTES || buf.readUInt32BE(0) !== length) return null;
  const headersLength = buf.readUInt32BE(4);
  if (PRELUDE_BYTES + headersLength + 4 > length) return null;
  if (crc32!(buf.subarray(0, 8)) !== buf.readUInt32BE(8) || crc32!(buf.subarray(0, length - 4)) !== buf.readUInt32BE(length - 4)) return null;
  const headers: MessageHeaders = {};
  const end = PRELUDE_BYTES + headersLength;
  // The header block as one latin1 string (one native call): each character is one byte, so
  // lengths and offsets are the wire's; ASCII names and values are already their UTF-8 text.
  const block = buf.toString('latin1', PRELUDE_BYTES, end);
  let at = 0;
  while (at < block.length) {
    const nameLength = block.charCodeAt(at);
    const nameEnd = at + 1 + nameLength;
    if (nameEnd + 3 > block.length || block.charCodeAt(nameEnd) !== STRING_HEADER) return null;
    const valueLength = (block.charCodeAt(nameEnd + 1) << 8) | block.charCodeAt(nameEnd + 2);
    const valueStart = nameEnd + 3;
    const valueEnd = valueStart + valueLength;
    if (valueEnd > block.length) return null;
    const name = block.slice(at + 1, nameEnd);
    const value = block.slice(valueStart, valueEnd);
    if (!ascii(name) || !ascii(value)) return null; // UTF-8 beyond ASCII: the codec decodes it
    headers[name] = { type: 'string', value };
    at = valueEnd;
  }
  return { headers, body: new Uint8Array(buf.buffer, buf.byteOffset + end, length - end - 4) };
}

/** One `:message-type exception` frame; the AWS SDK raises `:exception-type` as the error's name. */
export function encodeExceptionFrame(exceptionType: string, message: string): Uint8Array {
  const headers: MessageHeaders = { ':exception-type': stringHeader(exceptionType), ':content-type': JSON_CONTENT, ':message-type': EXCEPTION };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ message })) });
}

/** True when every character is below 0x80 (latin1 text of ASCII bytes is their UTF-8 text). */
function ascii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}
