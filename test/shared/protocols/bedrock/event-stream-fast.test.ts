// The event-stream fast paths (CRC-32 in JavaScript for short frames, header bytes built once,
// header block and payload decoded as one text) write the bytes @smithy/eventstream-codec
// writes and read the messages it reads, payload text included; anything else goes to it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { crc32 } from '../../../../src/shared/protocols/bedrock/crc32.js';
import {
  encodeEventFrame,
  EventStreamReader,
  KnownHeaderBlock,
  payloadText,
  type EventFrame,
  type Message,
} from '../../../../src/shared/protocols/bedrock/event-stream.js';
import { seededRandom } from '../../../helpers/seeded-random.js';
import { DELTA_HEADER_BLOCK } from '../../../../src/shared/protocols/bedrock/stream-fast-path.js';

const smithy = new EventStreamCodec(toUtf8, fromUtf8);
const PAYLOADS = ['{}', '{"contentBlockIndex":0,"delta":{"text":"héllo ☀️ 世界 🎉"}}', `{"t":"${'x'.repeat(70_000)}"}`];

function readAll(bytes: Uint8Array, cut: number): Message[] {
  const out: Message[] = [];
  const reader = new EventStreamReader((m) => out.push(m));
  reader.push(bytes.subarray(0, cut));
  reader.push(bytes.subarray(cut));
  reader.end();
  return out;
}

describe('bedrock event stream fast paths', () => {
  it('an event frame is the bytes the codec writes for the same message', () => {
    for (const type of ['contentBlockDelta', 'messageStart', 'métadata']) {
      for (const payload of PAYLOADS) {
        const frame = encodeEventFrame(type, payload);
        const message = smithy.decode(frame); // checks both CRCs
        assert.deepEqual(Object.keys(message.headers), [':event-type', ':content-type', ':message-type']);
        assert.equal(message.headers[':event-type']!.value, type);
        assert.equal(toUtf8(message.body), payload);
        assert.deepEqual(Buffer.from(smithy.encode(message)), Buffer.from(frame));
      }
    }
  });

  it('frames read as the codec reads them, non-string headers and bad CRCs included', () => {
    const frames = [
      smithy.encode({
        headers: { ':event-type': { type: 'string', value: 'contentBlockDelta' }, ':message-type': { type: 'string', value: 'event' } },
        body: fromUtf8(PAYLOADS[1]!),
      }),
      smithy.encode({
        headers: { ':message-type': { type: 'string', value: 'exception' }, n: { type: 'integer', value: 7 }, b: { type: 'boolean', value: true } },
        body: fromUtf8('{"message":"x"}'),
      }),
      smithy.encode({ headers: {}, body: new Uint8Array(0) }),
    ];
    const bytes = Buffer.concat(frames);
    const want = frames.map((f) => smithy.decode(f));
    for (const cut of [0, 5, 20, frames[0]!.length, bytes.length - 3]) {
      const got = readAll(bytes, cut);
      assert.equal(got.length, want.length);
      got.forEach((m, i) => {
        assert.deepEqual(m.headers, want[i]!.headers);
        assert.deepEqual(Buffer.from(m.body), Buffer.from(want[i]!.body));
      });
    }
    const bad = Buffer.from(frames[0]!);
    bad[bad.length - 20]! ^= 1;
    assert.throws(() => readAll(bad, 0), /bedrock event stream: invalid frame: The message checksum/);
  });

  it('carries the CRC across a known header block, and still refuses any flipped bit', () => {
    const known = new KnownHeaderBlock('contentBlockDelta');
    const delta = Buffer.from(encodeEventFrame('contentBlockDelta', PAYLOADS[1]!));
    const other = Buffer.from(encodeEventFrame('messageStart', '{"role":"assistant"}'));
    const told: boolean[] = [];
    const framed: string[] = [];
    const reader = new EventStreamReader(
      (f) => framed.push(payloadText(f)),
      (_text, _length, headersKnown) => {
        told.push(headersKnown);
        return false;
      },
      known,
    );
    reader.push(Buffer.concat([delta, other, delta]));
    assert.deepEqual(told, [true, false, true]);
    assert.deepEqual(framed, [PAYLOADS[1], '{"role":"assistant"}', PAYLOADS[1]]);
    for (let i = 12; i < delta.length; i++) {
      const bad = Buffer.from(delta);
      bad[i]! ^= 0x10;
      const r = new EventStreamReader(
        () => assert.fail(`byte ${i} flipped was read`),
        () => assert.fail(`byte ${i} flipped was offered`),
        known,
      );
      assert.throws(() => r.push(bad), /bedrock event stream/, `byte ${i}`);
    }
  });

  it('with payload shapes, tells only a whole known frame, and refuses any flipped bit of one', () => {
    const delta = Buffer.from(encodeEventFrame('contentBlockDelta', PAYLOADS[1]!));
    const unread = Buffer.from(encodeEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"a"}}}'));
    const told: boolean[] = [];
    const framed: string[] = [];
    const reader = new EventStreamReader(
      (f) => framed.push(payloadText(f)),
      (_text, _length, headersKnown) => {
        told.push(headersKnown);
        return false;
      },
      DELTA_HEADER_BLOCK,
    );
    reader.push(Buffer.concat([delta, unread, delta]));
    assert.deepEqual(told, [true, false, true]);
    assert.equal(framed.length, 3);
    for (let i = 12; i < delta.length; i++) {
      for (const bit of [0x01, 0x10, 0x80]) {
        const bad = Buffer.from(delta);
        bad[i]! ^= bit;
        const r = new EventStreamReader(
          () => assert.fail(`byte ${i} flipped was read`),
          () => assert.fail(`byte ${i} flipped was offered`),
          DELTA_HEADER_BLOCK,
        );
        assert.throws(() => r.push(bad), /bedrock event stream/, `byte ${i} ^ ${bit}`);
      }
    }
  });

  it('reads every delta shape, whatever its index and padding, and refuses a flipped bit in any of them', () => {
    // The CRC is carried across the constant runs around the string (DeltaSpans), and an
    // ASCII frame is read in latin1 text: each shape, an index whose runs are kept and one
    // whose are not, padding or none, bytes beyond ASCII in the string and in the padding.
    const payloads: string[] = [];
    for (const index of [0, 7, 31, 32, 123456]) {
      for (const value of ['hi', '', 'é ☀️ \\"q\\" 🎉']) {
        payloads.push(
          `{"contentBlockIndex":${index},"delta":{"text":"${value}"}}`,
          `{"contentBlockIndex":${index},"delta":{"text":"${value}"},"p":"abcdefgh"}`,
          `{"contentBlockIndex":${index},"delta":{"toolUse":{"input":"${value}"}},"p":"ä}"}`,
          `{"contentBlockIndex":${index},"delta":{"toolUse":{"input":"${value}"}}}`,
          `{"delta":{"text":"${value}"},"contentBlockIndex":${index}}`,
          `{"delta":{"toolUse":{"input":"${value}"}},"contentBlockIndex":${index}}`,
        );
      }
    }
    for (const payload of payloads) {
      const frame = Buffer.from(encodeEventFrame('contentBlockDelta', payload));
      const told: string[] = [];
      const reader = new EventStreamReader(
        () => assert.fail(`${payload} went to the codec`),
        (text, length, headersKnown) => {
          assert.equal(headersKnown, true, payload);
          told.push(text.slice(length));
          return true;
        },
        DELTA_HEADER_BLOCK,
      );
      reader.push(Buffer.concat([frame, frame])); // a chunk of two frames (read in the chunk's latin1 text when ASCII)
      reader.push(frame); // a chunk of one
      reader.push(frame.subarray(0, 9));
      reader.push(frame.subarray(9)); // a frame split across chunks
      assert.deepEqual(told, [payload, payload, payload, payload]);
      for (let i = 12; i < frame.length; i++) {
        const bad = Buffer.from(frame);
        bad[i]! ^= 1 << (i % 8);
        const r = new EventStreamReader(
          () => assert.fail(`byte ${i} flipped was read`),
          () => assert.fail(`byte ${i} flipped was offered`),
          DELTA_HEADER_BLOCK,
        );
        assert.throws(() => r.push(bad), /bedrock event stream/, `${payload}: byte ${i}`);
      }
    }
  });

  it('sums CRC-32 as the codec does, short ranges and long', () => {
    const bytes = Buffer.alloc(1500);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 3) * 31) & 0xff;
    // The codec's frames carry its sums: of the prelude, and of everything before the last four bytes.
    for (let n = 0; n <= bytes.length; n += n < 40 ? 1 : 37) {
      const frame = Buffer.from(smithy.encode({ headers: {}, body: bytes.subarray(0, n) }));
      assert.equal(crc32(frame, 0, 8), frame.readUInt32BE(8), `prelude, body of ${n}`);
      assert.equal(crc32(frame, 0, frame.length - 4), frame.readUInt32BE(frame.length - 4), `message, body of ${n}`);
    }
    assert.equal(crc32(bytes, 3, 3), 0);
  });

  it('reads random headers and payloads as the codec and TextDecoder do, bad UTF-8 included', () => {
    const rand = seededRandom(99);
    const utf8 = new TextDecoder();
    const names = [':event-type', ':content-type', ':message-type', 'x', '', 'é-name', 'n'.repeat(130)];
    const values = ['contentBlockDelta', 'event', '', 'métadata', '☀️', 'v'.repeat(127), 'v'.repeat(128), 'v'.repeat(300)];
    let native = 0;
    const bytePieces = [
      [0x7b],
      [0x41],
      [0xff],
      [0xc3],
      [0xc3, 0xa9],
      [0xe2, 0x98],
      [0xe2, 0x98, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x9f, 0x98, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xef, 0xbb, 0xbf],
      [0xc0, 0xaf],
      [0x80],
    ];
    for (let i = 0; i < 3000; i++) {
      const headers: MessageHeaders = {};
      for (let k = rand(4); k > 0; k--) {
        const name = names[rand(names.length)]!;
        headers[name] = rand(8) === 0 ? { type: 'integer', value: rand(1000) } : { type: 'string', value: values[rand(values.length)]! };
      }
      const body = Buffer.concat(Array.from({ length: rand(8) }, () => Buffer.from(bytePieces[rand(bytePieces.length)]!)));
      const frame = smithy.encode({ headers, body });
      const want = smithy.decode(frame);
      const frames: EventFrame[] = [];
      const reader = new EventStreamReader((f) => frames.push(f));
      reader.push(frame);
      assert.equal(frames.length, 1);
      assert.deepEqual(frames[0]!.headers, want.headers);
      assert.deepEqual(Buffer.from(frames[0]!.body), Buffer.from(want.body));
      assert.equal(payloadText(frames[0]!), utf8.decode(want.body), body.toString('hex'));
      if (frames[0]!.payload !== undefined) native++;
    }
    assert.ok(native > 500, `${native} frames read without the codec`);
  });
});
