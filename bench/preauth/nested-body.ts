// The flood's body: `bytes` of nested arrays, `[[[[...]]]]`, half opening and half closing
// brackets. JSON.parse of 9.8 MB of it held a worker for 10.5 s (issue 46); the JSON limits
// (src/shared/protocols/framing/json-limits.ts) refuse it after 65 bytes, and authentication on
// the headers first refuses it without reading it as JSON at all.
import { Buffer } from 'node:buffer';

export function nestedBody(bytes: number): Buffer {
  const half = Math.floor(bytes / 2);
  const body = Buffer.alloc(2 * half);
  body.fill(0x5b, 0, half);
  body.fill(0x5d, half);
  return body;
}
