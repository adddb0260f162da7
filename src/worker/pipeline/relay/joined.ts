// Binary stream frames written together: one view when they lie side by side, else a copy.
import { Buffer } from 'node:buffer';

/**
 * A batch of binary frames as one write. The Bedrock writer carves consecutive frames side by
 * side out of its slab and never rewrites them, so a batch is usually one run of bytes already:
 * then it is one view over them, not a copy; anything else is concatenated.
 */
export function joined(parts: readonly Uint8Array[]): Uint8Array {
  const first = parts[0]!;
  let end = first.byteOffset + first.byteLength;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.buffer !== first.buffer || part.byteOffset !== end) return Buffer.concat(parts);
    end += part.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}
