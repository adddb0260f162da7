// One response's queued bytes, sent in uWS corks that never overflow uWS's cork buffer.
//
// The uWS build that loads here (uWS.js 20.30) loses bytes when a write inside a cork does not
// fit in what is left of its 16 KiB cork buffer while the socket is nearly full: the write
// uncorks, AsyncSocket::uncork sends the corked bytes, and when the socket does not take them
// all it returns at once, neither writing nor buffering the new bytes. A chunk's size line is
// already in the corked bytes, so it goes out and its data never does: the caller's parser
// fails ("Expected LF after chunk data") or waits forever for a content-length. It happens
// right after a drain (a slow reader's socket buffer just refilled), so a stream to a caller
// that reads slowly is where it shows. Writes that fit, and writes made while uWS still holds
// backpressure, are kept, so here each cork holds at most CORK_BUFFER_BYTES (counted from
// above), a longer part is cut across corks, and a whole answer longer than that goes out by
// tryEnd, which reports what it could not write instead of dropping it.
//
// Writes run inside res.cork(fn), which calls fn synchronously. The arguments travel in these
// module variables so that no closure is allocated per write (a worker is one thread).
import { Buffer } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from '../shared/uws.js';
import { uwsKey } from './uws-keys.js';

/** uWS's LoopData::CORK_BUFFER_SIZE. */
const CORK_BUFFER_BYTES = 16 * 1024;
/** What uWS writes around each chunk of a chunked body: CRLF, the size in hex, CRLF. */
const CHUNK_FRAMING_BYTES = 12;
/** The end of a chunked body: CRLF, "0", CRLF, CRLF. */
const CHUNKED_END_BYTES = 7;
/**
 * What uWS adds to a head besides the status and our headers: "HTTP/1.1 ", CRLFs, its Date
 * and uWebSockets headers, and Transfer-Encoding or Content-Length (with a 20-digit length).
 */
const UWS_HEAD_BYTES = 192;
/** A part is cut only when at least this much room is left; less starts the next cork. */
const MIN_SLICE_BYTES = 1024;

/** Each known status line as bytes (uws-keys.ts: uWS reads them in place). */
const STATUS_LINES: ArrayBuffer[] = [];
for (const code of Object.keys(STATUS_CODES)) STATUS_LINES[Number(code)] = uwsKey(`${code} ${STATUS_CODES[code]}`);
function statusLine(status: number): ArrayBuffer | string {
  return STATUS_LINES[status] ?? `${status} Unknown`;
}
/** The header every answer has, as bytes too. */
const CONTENT_TYPE = uwsKey('content-type');

/**
 * Where a string part too long to count by its length is made bytes: uWS copies what it is
 * given before `write` returns, so one slab serves every write. (uWS would otherwise make the
 * string UTF-8 itself, measuring it first, which costs more than this.)
 */
const slab = Buffer.allocUnsafe(4 * CORK_BUFFER_BYTES);

let corkRes: HttpResponse | null = null;
let corkStatus = 0;
let corkHeaders: Record<string, string> | null = null;
let corkBody: string | Uint8Array = '';
let corkParts: readonly (string | Uint8Array)[] | null = null;
let corkClose = false;
/** Every write of this send found room in the socket. */
let corkWritable = true;
/** Bytes this cork holds (an upper bound). */
let corkUsed = 0;
/** The next part to write, and what is left of it when an earlier cork took its start. */
let corkNext = 0;
let corkRest: Uint8Array | null = null;
/** The stream ends with this send (its terminator still to write). */
let corkEnding = false;
/** A whole answer too long for one cork: its bytes, for tryEnd (null when `end` sent it). */
let corkLongBody: Uint8Array | null = null;

/** Writes the status and headers; returns the bytes they take in the cork (at most). */
function writeHead(res: HttpResponse): number {
  const line = statusLine(corkStatus);
  res.writeStatus(line);
  let bytes = UWS_HEAD_BYTES + (typeof line === 'string' ? line.length : line.byteLength);
  const headers = corkHeaders!;
  for (const name in headers) {
    const value = headers[name]!;
    res.writeHeader(name === 'content-type' ? CONTENT_TYPE : name, value); // the one every answer has, as bytes
    bytes += name.length + 3 * value.length + 4; // ": " and CRLF; 3 bytes a character at most
  }
  return bytes;
}

/** A whole answer: `end` when head and body fit the cork, else the first tryEnd. */
function corkedRespond(): void {
  const res = corkRes!;
  const head = writeHead(res);
  const body = corkBody;
  const room = CORK_BUFFER_BYTES - head;
  // An answer that closes the connection is a short refusal (413, 415, 503): always `end`.
  if (corkClose || (typeof body === 'string' ? 3 * body.length : body.length) <= room) {
    res.end(body, corkClose);
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (bytes.length <= room) {
    res.end(bytes);
    return;
  }
  const [, done] = res.tryEnd(bytes, bytes.length);
  if (!done) corkLongBody = bytes;
}

/** One cork of a stream: the held-back head, the parts that fit, and the end when it fits. */
function corkedStream(): void {
  const res = corkRes!;
  corkUsed = 0;
  if (corkHeaders !== null) {
    corkUsed = writeHead(res);
    corkHeaders = null;
  }
  if (!writeParts(res)) return;
  if (corkEnding && corkUsed + CHUNKED_END_BYTES <= CORK_BUFFER_BYTES) {
    res.end();
    corkEnding = false;
  }
}

/** Writes the parts from corkNext on while they fit in this cork: false when some are left. */
function writeParts(res: HttpResponse): boolean {
  const parts = corkParts;
  if (parts === null) return true;
  while (corkNext < parts.length) {
    let part: string | Uint8Array = corkRest ?? parts[corkNext]!;
    let size = typeof part === 'string' ? 3 * part.length : part.length;
    const room = CORK_BUFFER_BYTES - corkUsed - CHUNK_FRAMING_BYTES;
    if (size > room) {
      if (typeof part === 'string') {
        // Counted by its bytes now; kept in `corkRest` in case a later cork takes its end.
        part = 3 * part.length <= slab.length ? slab.subarray(0, slab.write(part, 0)) : Buffer.from(part);
        size = part.length;
        corkRest = part;
      }
      if (size > room) {
        if (room < MIN_SLICE_BYTES) return false;
        corkWritable = res.write(part.subarray(0, room)) && corkWritable;
        corkRest = part.subarray(room);
        return false;
      }
    }
    corkWritable = res.write(part) && corkWritable;
    corkUsed += size + CHUNK_FRAMING_BYTES;
    corkRest = null;
    corkNext++;
  }
  return true;
}

/**
 * Sends a stream's queued bytes (`head` given: its status and headers first), and its end
 * when `ending`, in as few corks as the cork buffer allows (one, nearly always). True when the
 * socket took everything; false when uWS holds some back (wait for onWritable).
 */
export function sendStream(
  res: HttpResponse,
  status: number,
  head: Record<string, string> | null,
  parts: readonly (string | Uint8Array)[] | null,
  ending: boolean,
): boolean {
  corkRes = res;
  corkStatus = status;
  corkHeaders = head;
  corkParts = parts;
  corkNext = 0;
  corkRest = null;
  corkEnding = ending;
  corkWritable = true;
  try {
    do res.cork(corkedStream);
    while (corkEnding || (parts !== null && corkNext < parts.length));
    return corkWritable;
  } finally {
    corkRes = null;
    corkHeaders = null;
    corkParts = null;
    corkRest = null;
  }
}

/**
 * Sends a whole answer with its content-length. Returns null when it all went (or uWS holds
 * the rest); else the body's bytes, of which the socket took `res.getWriteOffset()`: the caller
 * goes on with `sendRest` when uWS reports the socket writable.
 */
export function sendAnswer(res: HttpResponse, status: number, head: Record<string, string>, body: string | Uint8Array, close: boolean): Uint8Array | null {
  corkRes = res;
  corkStatus = status;
  corkHeaders = head;
  corkBody = body;
  corkClose = close;
  corkLongBody = null;
  try {
    res.cork(corkedRespond);
    return corkLongBody;
  } finally {
    corkRes = null;
    corkHeaders = null;
    corkBody = '';
    corkLongBody = null;
  }
}

/** More of a long answer, from `offset` (uWS's write offset): [the socket took it all, the answer is complete]. */
export function sendRest(res: HttpResponse, body: Uint8Array, offset: number): [boolean, boolean] {
  let result: [boolean, boolean] = [true, true];
  res.cork(() => {
    result = res.tryEnd(body.subarray(offset), body.length);
  });
  return result;
}
