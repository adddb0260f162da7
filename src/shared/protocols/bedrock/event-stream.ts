// The binary AWS event stream (application/vnd.amazon.eventstream) that Bedrock's
// converse-stream speaks: frames of [total length u32][headers length u32][prelude CRC]
// [headers][payload][message CRC], big endian. @smithy/eventstream-codec checks and writes the
// CRCs; this file only finds frame boundaries as bytes arrive.
import { EventStreamCodec, type Message, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../../errors.js';

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
    let message: Message;
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
  const headers: MessageHeaders = { ':event-type': stringHeader(eventType), ':content-type': JSON_CONTENT, ':message-type': EVENT };
  return codec.encode({ headers, body: fromUtf8(payloadJson) });
}

/** One `:message-type exception` frame; the AWS SDK raises `:exception-type` as the error's name. */
export function encodeExceptionFrame(exceptionType: string, message: string): Uint8Array {
  const headers: MessageHeaders = { ':exception-type': stringHeader(exceptionType), ':content-type': JSON_CONTENT, ':message-type': EXCEPTION };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ message })) });
}
