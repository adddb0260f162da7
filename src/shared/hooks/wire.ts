// The hook wire format (docs/hooks.md is the reference a hook author reads). Over a unix
// socket every message is one frame: a 4-byte unsigned big-endian length, then that many bytes
// of a msgpack map. Over a webhook the same map is the JSON body of one POST. Every map has
// `type` and `id`; a reply carries the `id` of its request, so requests are multiplexed on one
// connection and answered in any order. Taps are never answered.
import { Buffer } from 'node:buffer';
import { Packr, Unpackr } from 'msgpackr';

/** Longest frame either side accepts: a bigger length prefix means a broken peer. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export type TapStage = 'request' | 'route' | 'attempt' | 'completion';

/** Gateway -> hook. */
export type HookRequest =
  | { type: 'configure'; id: number; settings: Record<string, unknown>; settings_version: number }
  | { type: 'describe'; id: number }
  | { type: 'status'; id: number }
  | { type: 'gate'; id: number; pool: string; members: string[]; request: GateRequestInfo }
  | { type: 'tap'; id: number; at: TapStage; event: TapEvent };

/** What a gate is told about the request; `prompt` and `key_id` only with the matching grant. */
export interface GateRequestInfo {
  request_id: string;
  protocol: string;
  model: string;
  stream: boolean;
  /** The caller's JSON request body, in its protocol (prompt: ro|rw only). */
  prompt?: unknown;
  /** The caller's key id, '' when the caller is anonymous (user: ro only). */
  key_id?: string;
}

export interface TapEvent {
  request_id: string;
  pool: string;
  protocol: string;
  model: string;
  stream: boolean;
  /** route, attempt, completion: the lane picked / tried / that served last ('' when none). */
  lane?: string;
  /** attempt: the 1-based attempt number. */
  attempt?: number;
  /** completion: the disposition and the request's duration. */
  disposition?: string;
  duration_ms?: number;
  prompt?: unknown;
  key_id?: string;
}

/** Hook -> gateway. */
export type HookReply =
  | { type: 'configure'; id: number; ok: boolean }
  | { type: 'describe'; id: number; name: string; version: string; schema: Record<string, unknown> | null }
  | { type: 'status'; id: number; settings: Record<string, unknown> | null; settings_version: number | null; metrics?: unknown[] }
  | {
      type: 'gate';
      id: number;
      decision: 'order' | 'abstain' | 'reject';
      /** order: member names, first to try first (names not in the pool are ignored). */
      order?: string[];
      /** reject: a 4xx status and a message for the caller. */
      status?: number;
      message?: string;
      /** prompt: rw only: the replacement request body. */
      prompt?: unknown;
    }
  | { type: 'error'; id: number; message: string };

// One encoder for every frame: no structure records, so any msgpack decoder reads the output.
const packr = new Packr({ useRecords: false, moreTypes: false });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

/** One frame: length prefix and msgpack map. */
export function encodeFrame(message: object): Buffer {
  const body = packr.pack(message);
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Splits a byte stream into decoded frames; push() bytes as they arrive. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** Decoded messages completed by `chunk`; throws on an oversized or undecodable frame. */
  push(chunk: Buffer): unknown[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: unknown[] = [];
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) throw new Error(`frame of ${length} bytes is over the ${MAX_FRAME_BYTES}-byte limit`);
      if (this.buffered.length < 4 + length) break;
      out.push(unpackr.unpack(this.buffered.subarray(4, 4 + length)));
      this.buffered = this.buffered.subarray(4 + length);
    }
    return out;
  }

  reset(): void {
    this.buffered = Buffer.alloc(0);
  }
}

/** A reply's `type` and `id`, or null when the map is not a reply at all. */
export function replyHeader(message: unknown): { type: string; id: number } | null {
  if (message === null || typeof message !== 'object') return null;
  const { type, id } = message as { type?: unknown; id?: unknown };
  return typeof type === 'string' && typeof id === 'number' ? { type, id } : null;
}
