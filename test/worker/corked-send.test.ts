// corked-send.ts over a real uWS listener and a caller that reads in small sips, so the socket
// is full and drains again and again: every byte of a stream and of a long answer arrives, in
// order, framed right. Sends of a short part then a long one are where uWS 20.30 drops bytes
// when one cork takes them both (written in one cork, this stream broke within a few hundred
// rounds in every try).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import uWS, { type HttpResponse, type us_listen_socket } from '../../src/shared/uws.js';
import { sendAnswer, sendRest, sendStream } from '../../src/worker/corked-send.js';

const ROUNDS = 3000;
const SHORT = Buffer.alloc(1000, 0x61); // a
const LONG = Buffer.alloc(20_000, 0x62); // b
const LONG_TEXT = 'é'.repeat(9_000); // 18,000 bytes: a string part, cut by its bytes
const STREAM_PARTS: (string | Uint8Array)[] = [SHORT, LONG, SHORT, LONG_TEXT];
const ANSWER = 'ü€'.repeat(40_000) + 'end'; // 200,003 bytes

/** A stream of ROUNDS sends, one per turn, waiting for uWS's onWritable after a full send as the ingress does. */
function stream(res: HttpResponse): void {
  let aborted = false;
  res.onAborted(() => (aborted = true));
  let round = 0;
  const step = (): void => {
    if (aborted) return;
    round++;
    const writable = sendStream(res, 200, round === 1 ? { 'content-type': 'text/plain' } : null, STREAM_PARTS, round === ROUNDS);
    if (round === ROUNDS) return;
    if (writable) setImmediate(step);
    else
      res.onWritable(() => {
        setImmediate(step);
        return true;
      });
  };
  step();
}

function answer(res: HttpResponse): void {
  res.onAborted(() => undefined);
  const rest = sendAnswer(res, 200, { 'content-type': 'text/plain; charset=utf-8' }, ANSWER, false);
  if (rest !== null) res.onWritable((offset) => sendRest(res, rest, offset)[0]);
}

let listen: us_listen_socket | null = null;
let port = 0;
before(async () => {
  const app = uWS.App();
  app.get('/stream', stream);
  app.get('/answer', answer);
  await new Promise<void>((resolve) => {
    app.listen('127.0.0.1', 0, (socket) => {
      listen = socket;
      port = uWS.us_socket_local_port(socket);
      resolve();
    });
  });
});
after(() => {
  if (listen !== null) uWS.us_listen_socket_close(listen);
});

/**
 * GET /stream, then (once its end arrived) GET /answer on the same connection, each read a sip
 * at a time: the socket pauses for a millisecond after every read. (This uWS build closes a
 * connection that sends a request while an answer is still under way, so the two are not
 * pipelined.)
 */
function fetchSipping(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /stream HTTP/1.1\r\nhost: x\r\n\r\n'));
    const parts: Buffer[] = [];
    let asked = false;
    socket.on('data', (d) => {
      parts.push(d);
      if (!asked && d.subarray(-7).toString('latin1') === '\r\n0\r\n\r\n') {
        asked = true;
        socket.write('GET /answer HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      }
      socket.pause();
      setTimeout(() => socket.resume(), 1);
    });
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
}

/** The response at `at`: its body (chunked framing checked and removed) and where the next starts. */
function readResponse(bytes: Buffer, at: number): { status: string; body: Buffer; next: number } {
  const headEnd = bytes.indexOf('\r\n\r\n', at);
  assert.ok(headEnd > 0, 'a head');
  const head = bytes.subarray(at, headEnd).toString('latin1');
  const status = head.slice(0, head.indexOf('\r\n'));
  const length = /\r\ncontent-length: (\d+)/i.exec(head);
  if (length !== null) {
    const end = headEnd + 4 + Number(length[1]);
    return { status, body: bytes.subarray(headEnd + 4, end), next: end };
  }
  assert.match(head, /\r\ntransfer-encoding: chunked/i);
  const chunks: Buffer[] = [];
  let i = headEnd + 2; // uWS writes each chunk as CRLF, size, CRLF, data: the head's last CRLF opens the first
  for (;;) {
    assert.equal(bytes.toString('latin1', i, i + 2), '\r\n', `CRLF before chunk ${chunks.length}`);
    const sizeEnd = bytes.indexOf('\r\n', i + 2);
    const size = Number.parseInt(bytes.toString('latin1', i + 2, sizeEnd), 16);
    assert.ok(Number.isInteger(size), `a size line for chunk ${chunks.length}`);
    i = sizeEnd + 2;
    if (size === 0) return { status, body: Buffer.concat(chunks), next: i + 2 };
    chunks.push(bytes.subarray(i, i + size));
    i += size;
  }
}

describe('corked sends to a caller that reads slowly', () => {
  it('a stream of short and long parts, then a long answer on the same connection, arrive whole and framed', async () => {
    const bytes = await fetchSipping();
    const first = readResponse(bytes, 0);
    assert.equal(first.status, 'HTTP/1.1 200 OK');
    const round = Buffer.concat(STREAM_PARTS.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    assert.equal(first.body.length, ROUNDS * round.length);
    for (let r = 0; r < ROUNDS; r++) {
      if (!first.body.subarray(r * round.length, (r + 1) * round.length).equals(round)) assert.fail(`round ${r} differs`);
    }
    const second = readResponse(bytes, first.next);
    assert.equal(second.status, 'HTTP/1.1 200 OK');
    assert.equal(second.body.toString('utf8'), ANSWER);
    assert.equal(second.next, bytes.length);
  });
});
