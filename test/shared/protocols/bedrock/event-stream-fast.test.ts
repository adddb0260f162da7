// The event-stream fast paths (native CRC-32, header bytes built once) write the bytes
// @smithy/eventstream-codec writes and read the messages it reads; anything else goes to it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { encodeEventFrame, EventStreamReader, type Message } from '../../../../src/shared/protocols/bedrock/event-stream.js';

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
      smithy.encode({ headers: { ':event-type': { type: 'string', value: 'contentBlockDelta' }, ':message-type': { type: 'string', value: 'event' } }, body: fromUtf8(PAYLOADS[1]!) }),
      smithy.encode({ headers: { ':message-type': { type: 'string', value: 'exception' }, n: { type: 'integer', value: 7 }, b: { type: 'boolean', value: true } }, body: fromUtf8('{"message":"x"}') }),
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
    bad[bad.length - 20] ^= 1;
    assert.throws(() => readAll(bad, 0), /bedrock event stream: invalid frame: The message checksum/);
  });
});
