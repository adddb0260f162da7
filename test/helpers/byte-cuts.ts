// Bytes cut into the chunks a streaming reader is pushed: at given places, after every byte, or
// at random places.

/** The chunks of `bytes` cut at `cuts` (ascending offsets), the rest last. */
export function chunksAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(at, c));
    at = c;
  }
  return chunks;
}

/** The cuts after every byte of `length` bytes: one byte at a time. */
export function everyByte(length: number): number[] {
  return Array.from({ length: length - 1 }, (_, i) => i + 1);
}

/** Fewer than `most` cuts into `length` bytes, distinct and ascending, drawn from `rand`. */
export function randomCuts(rand: (n: number) => number, length: number, most: number): number[] {
  return [...new Set(Array.from({ length: rand(most) }, () => rand(length + 1)))].sort((a, b) => a - b);
}
