// A same-protocol request body edited over its bytes. Its text form (json-field.ts,
// rewriteTopLevelString) needs the body decoded to a string, and the spliced string flattened
// and encoded to bytes again for the socket: three copies of the body, where one does
// (docs/decisions/181-passthrough-bytes.md). Where the value
// sits comes from readTopLevelMembers (its one occurrence, a string without escapes), so
// nothing is searched here; a native search or copy is a call that costs more than a short
// loop, so the body is copied natively once and its few first bytes fixed by hand.
import { Buffer } from 'node:buffer';
import type { StringSpan } from './top-level-members.js';

/** The last value set, as bytes bare and as a JSON literal: a lane's upstream model is the same every time. */
let lastValue = '';
let lastBare = Buffer.alloc(0);
let lastLiteral = Buffer.from('""');
function remember(value: string): void {
  if (value === lastValue) return;
  lastValue = value;
  lastBare = Buffer.from(value);
  lastLiteral = Buffer.from(JSON.stringify(value));
}

/**
 * Where edited bodies are carved from, one after another: node's own pool (Buffer.allocUnsafe)
 * is 8 KiB, and making a new one every few dozen requests cost more than the edit itself. A
 * slab stays alive while a body carved from it does (bodies live for one request).
 */
const SLAB_BYTES = 64 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabUsed = 0;
function carve(size: number): Uint8Array {
  if (size > SLAB_BYTES / 8) return new Uint8Array(size);
  if (slabUsed + size > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += (size + 7) & ~7;
  return out;
}

/**
 * `bytes` with the string inside the quotes at `span` set to `value` (written as JSON): `bytes`
 * itself when it already holds it, else new bytes with only that string changed.
 */
export function spliceString(bytes: Buffer, span: StringSpan, value: string): Uint8Array {
  remember(value);
  const { start, end } = span;
  const bare = lastBare;
  if (end - start === bare.length) {
    let same = true;
    for (let i = 0; i < bare.length; i++) {
      if (bytes[start + i] !== bare[i]) {
        same = false;
        break;
      }
    }
    if (same) return bytes;
  }
  const literal = lastLiteral;
  // The literal takes the quotes' places too; what follows the value moves by `shift`.
  const before = start - 1;
  const shift = literal.length - (end + 1 - before);
  const out = carve(bytes.length + shift);
  // The whole body copied once, at the tail's place (one native call, no view made of it); the
  // few bytes before the value and the literal are then written over the start by hand.
  if (shift >= 0) out.set(bytes, shift);
  else out.set(new Uint8Array(bytes.buffer, bytes.byteOffset - shift, bytes.length + shift), 0);
  if (before <= 64) for (let i = 0; i < before; i++) out[i] = bytes[i]!;
  else out.set(new Uint8Array(bytes.buffer, bytes.byteOffset, before), 0); // a model after long messages
  for (let i = 0; i < literal.length; i++) out[before + i] = literal[i]!;
  return out;
}
