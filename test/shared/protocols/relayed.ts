// What a same-protocol passthrough stream writes to the caller, for tests: every output of
// push() and end() joined. Streams relay whole events only (framing/whole-events.ts), so a
// chunk's unfinished tail comes out with a later chunk; nothing is lost, added or reordered.
import assert from 'node:assert/strict';
import type { PassthroughBytes, PassthroughStream } from '../../../src/shared/protocols/codec.js';

export function bytesOf(out: PassthroughBytes): Buffer {
  if (typeof out === 'string') return Buffer.from(out);
  if (out instanceof Uint8Array) return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  return Buffer.concat(out.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/** Pushes `chunks`, ends, and checks that exactly their bytes came out, in order. */
export function assertRelayedWhole(p: PassthroughStream, chunks: readonly Uint8Array[]): void {
  const out: Buffer[] = chunks.map((c) => bytesOf(p.push(c)));
  out.push(bytesOf(p.end()));
  assert.deepEqual(Buffer.concat(out), Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))));
}
