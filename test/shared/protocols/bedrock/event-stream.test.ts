import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  EventStreamReader,
  encodeEventFrame,
  encodeExceptionFrame,
  headerString,
  type Message,
} from '../../../../src/shared/protocols/bedrock/event-stream.js';
import { GatewayError } from '../../../../src/shared/errors.js';
import { awsCodec, vendorFrames, vendorStream } from './fixtures.js';

const utf8 = new TextDecoder();

function readAll(chunks: Uint8Array[]): Message[] {
  const out: Message[] = [];
  const r = new EventStreamReader((m) => out.push(m));
  for (const c of chunks) r.push(c);
  r.end();
  return out;
}

const summary = (ms: Message[]) => ms.map((m) => [headerString(m, ':event-type'), utf8.decode(m.body)]);

describe('bedrock event-stream reader', () => {
  const whole = summary(readAll([vendorStream]));

  it('finds every frame', () => {
    assert.equal(whole.length, vendorFrames.length);
    assert.equal(whole[0]![0], 'messageStart');
  });

  it('finds the same frames split at every byte offset and one byte at a time', () => {
    for (let at = 0; at <= vendorStream.length; at++) {
      assert.deepEqual(summary(readAll([vendorStream.subarray(0, at), vendorStream.subarray(at)])), whole, `split at ${at}`);
    }
    const ones: Uint8Array[] = [];
    for (let i = 0; i < vendorStream.length; i++) ones.push(vendorStream.subarray(i, i + 1));
    assert.deepEqual(summary(readAll(ones)), whole);
  });

  it('rejects a corrupted frame with a clear error, not a crash', () => {
    const bad = vendorStream.slice();
    bad[vendorFrames[0]!.length + 20]! ^= 0xff; // a payload byte of the second frame
    const seen: Message[] = [];
    const r = new EventStreamReader((m) => seen.push(m));
    assert.throws(
      () => r.push(bad),
      (e: unknown) => e instanceof GatewayError && e.kind === 'upstream_error' && /bedrock event stream: invalid frame: .*checksum/i.test(e.message),
    );
    assert.equal(seen.length, 1, 'the good frame before it was read');
    const prelude = vendorFrames[0]!.slice();
    prelude[2]! ^= 0x01; // the length itself: prelude CRC catches it, or the length is absurd
    assert.throws(() => readAll([prelude]), GatewayError);
  });

  it('rejects an absurd frame length before buffering it', () => {
    assert.throws(
      () => readAll([new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0])]),
      (e: unknown) => e instanceof GatewayError && /frame length/.test(e.message),
    );
    assert.throws(
      () => readAll([new Uint8Array([0, 0, 0, 3])]),
      (e: unknown) => e instanceof GatewayError && /frame length 3/.test(e.message),
    );
  });

  it('reports a stream that ends inside a frame', () => {
    assert.throws(
      () => readAll([vendorStream.subarray(0, vendorFrames[0]!.length + 5)]),
      (e: unknown) => e instanceof GatewayError && /middle of a frame/.test(e.message),
    );
  });

  it('writes event and exception frames the AWS codec decodes, CRCs included', () => {
    const ev = awsCodec.decode(encodeEventFrame('contentBlockDelta', '{"x":1}'));
    assert.deepEqual(ev.headers, {
      ':event-type': { type: 'string', value: 'contentBlockDelta' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    });
    assert.equal(utf8.decode(ev.body), '{"x":1}');
    const ex = awsCodec.decode(encodeExceptionFrame('throttlingException', 'slow "down"'));
    assert.equal(ex.headers[':message-type']!.value, 'exception');
    assert.equal(ex.headers[':exception-type']!.value, 'throttlingException');
    assert.deepEqual(JSON.parse(utf8.decode(ex.body)), { message: 'slow "down"' });
  });
});
