// CRC-32 (zlib's polynomial, the one the event stream's checksums use) of a byte range. Short
// ranges, the frames nearly every stream is made of, are summed here in JavaScript, eight bytes
// a step (slice-by-8 tables): node 20's zlib.crc32 costs more for them, with its call and the
// subarray it needs (about 140 against 75 ns for a 130-byte frame, 65 against 10 for the
// 8-byte prelude). Longer ranges go to zlib.crc32 where this node has it.
import * as zlib from 'node:zlib';

const native: ((data: Uint8Array) => number) | undefined = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
/** Above this many bytes the native sum is the cheaper (measured crossover: 600 to 700). */
const JS_MAX_BYTES = 512;

/** TABLES[k * 256 + b]: the CRC of byte b followed by k zero bytes; k = 0 is the classic table. */
const TABLES = new Int32Array(8 * 256);
for (let b = 0; b < 256; b++) {
  let c = b;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLES[b] = c;
}
for (let k = 1; k < 8; k++) {
  for (let b = 0; b < 256; b++) {
    const prev = TABLES[(k - 1) * 256 + b]!;
    TABLES[k * 256 + b] = TABLES[prev & 0xff]! ^ (prev >>> 8);
  }
}

/** CRC-32 of `bytes[start, end)` as an unsigned integer (what zlib.crc32 returns). */
export function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (end - start > JS_MAX_BYTES && native !== undefined) return native(bytes.subarray(start, end));
  const t = TABLES;
  let c = -1;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const low = c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c = t[1792 + (low & 0xff)]! ^ t[1536 + ((low >>> 8) & 0xff)]! ^ t[1280 + ((low >>> 16) & 0xff)]! ^ t[1024 + (low >>> 24)]!
      ^ t[768 + bytes[i + 4]!]! ^ t[512 + bytes[i + 5]!]! ^ t[256 + bytes[i + 6]!]! ^ t[bytes[i + 7]!]!;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
