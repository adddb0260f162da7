// CRC-32 (zlib's polynomial, the one the event stream's checksums use) of a byte range. Short
// ranges, the frames nearly every stream is made of, are summed here in JavaScript, eight bytes
// a step (slice-by-8 tables): node 20's zlib.crc32 costs more for them, with its call and the
// subarray it needs (about 140 against 75 ns for a 130-byte frame, 65 against 10 for the
// 8-byte prelude). Longer ranges go to zlib.crc32 where this node has it.
import * as zlib from 'node:zlib';

const native: ((data: Uint8Array) => number) | undefined = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
/** Above this many bytes the native sum is the cheaper (measured crossover: 600 to 700). */
export const JS_MAX_BYTES = 512;

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
  return crc32Final(crc32Continue(CRC32_START, bytes, start, end));
}

/** The CRC register before any byte; `crc32Final` turns a register into the sum. */
export const CRC32_START = -1;

export function crc32Final(register: number): number {
  return (register ^ -1) >>> 0;
}

/** The CRC register after `bytes[start, end)`, from `register` (in JavaScript at any length). */
export function crc32Continue(register: number, bytes: Uint8Array, start: number, end: number): number {
  const t = TABLES;
  let c = register;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const low = c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c =
      t[1792 + (low & 0xff)]! ^
      t[1536 + ((low >>> 8) & 0xff)]! ^
      t[1280 + ((low >>> 16) & 0xff)]! ^
      t[1024 + (low >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/**
 * Carries a CRC register across a constant block of bytes in four table lookups, whatever came
 * before it. CRC-32 is linear: the register after the block is the register the block gives
 * from zero, xor the incoming register carried across as many zero bytes, and that carry is a
 * linear map of the register's four bytes, tabulated once per block length.
 */
export class Crc32Across {
  private readonly fromZero: number;
  private readonly carry: Int32Array;

  constructor(block: Uint8Array) {
    this.fromZero = crc32Continue(0, block, 0, block.length);
    this.carry = carryTables(block.length);
  }

  register(before: number): number {
    const t = this.carry;
    return this.fromZero ^ t[before & 0xff]! ^ t[256 + ((before >>> 8) & 0xff)]! ^ t[512 + ((before >>> 16) & 0xff)]! ^ t[768 + (before >>> 24)]!;
  }
}

/** carry[k * 256 + b]: the register (b << 8k) carried across `length` zero bytes; one per length. */
const carryByLength = new Map<number, Int32Array>();
function carryTables(length: number): Int32Array {
  let carry = carryByLength.get(length);
  if (carry === undefined) {
    const zeros = new Uint8Array(length);
    carry = new Int32Array(4 * 256);
    for (let k = 0; k < 4; k++) for (let b = 0; b < 256; b++) carry[k * 256 + b] = crc32Continue(b << (8 * k), zeros, 0, length);
    carryByLength.set(length, carry);
  }
  return carry;
}

/**
 * Copies `src[from, to)` to `dst` at `at` and carries `register` across those bytes: for the few
 * bytes of a delta's literal, one loop instead of a copy (a subarray and a native call) and a sum.
 */
export function crc32Copy(register: number, src: Uint8Array, from: number, to: number, dst: Uint8Array, at: number): number {
  const t = TABLES;
  let c = register;
  for (let i = from; i < to; i++) {
    const b = src[i]!;
    dst[at++] = b;
    c = t[(c ^ b) & 0xff]! ^ (c >>> 8);
  }
  return c;
}
