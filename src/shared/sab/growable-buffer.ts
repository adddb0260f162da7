// A growable SharedArrayBuffer (ES2024; in Node since 20). It is posted to a worker once and
// every later grow() is seen by every thread: typed arrays made without a length track the
// buffer's current byteLength. The compiler's lib stops at ES2023, so the constructor option
// and the grow() method are typed here.
import { SharedCapacityError } from './faults.js';

export interface GrowableSharedArrayBuffer extends SharedArrayBuffer {
  readonly growable: boolean;
  readonly maxByteLength: number;
  grow(newByteLength: number): void;
}

type GrowableConstructor = new (byteLength: number, options: { maxByteLength: number }) => GrowableSharedArrayBuffer;

export function createGrowableBuffer(initialBytes: number, maxBytes: number): GrowableSharedArrayBuffer {
  const Ctor = SharedArrayBuffer as unknown as GrowableConstructor;
  const buffer = new Ctor(initialBytes, { maxByteLength: maxBytes });
  if (buffer.growable !== true) throw new Error('this runtime cannot grow a SharedArrayBuffer (Node 20 or later is required)');
  return buffer;
}

export function asGrowable(buffer: SharedArrayBuffer): GrowableSharedArrayBuffer {
  const growable = buffer as GrowableSharedArrayBuffer;
  if (growable.growable !== true) throw new Error('shared memory must be a growable SharedArrayBuffer');
  return growable;
}

/**
 * Make the buffer at least `bytes` long. Grows by doubling (capped at the maximum) so that a
 * run of slot assignments costs few grow() calls. Only the main thread grows; growth never
 * moves existing bytes, so workers keep reading and writing while it happens.
 */
export function ensureBufferBytes(buffer: GrowableSharedArrayBuffer, bytes: number, what: string): void {
  const current = buffer.byteLength;
  if (bytes <= current) return;
  const max = buffer.maxByteLength;
  if (bytes > max) throw new SharedCapacityError(what, bytes, max);
  const doubled = Math.min(max, Math.max(bytes, current * 2));
  buffer.grow(doubled - (doubled % 8));
  if (buffer.byteLength < bytes) buffer.grow(bytes);
}
