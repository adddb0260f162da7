// The hook wire framing: a frame is a 4-byte big-endian length and one msgpack map; a reader
// reassembles frames split anywhere across chunks, and refuses an oversized length.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame, FrameReader, MAX_FRAME_BYTES, replyHeader } from '../../../src/shared/hooks/wire.js';

describe('hook wire frames', () => {
  it('round-trips maps split at every byte boundary, several per chunk', () => {
    const messages = [
      { type: 'gate', id: 1, pool: 'p', members: ['a', 'b'], request: { request_id: 'r', protocol: 'openai', model: 'm', stream: false } },
      { type: 'status', id: 2 },
      { type: 'configure', id: 0, settings: { nested: { x: [1, 2, 3] } }, settings_version: 7 },
    ];
    const bytes = Buffer.concat(messages.map((m) => encodeFrame(m)));
    assert.equal(bytes.readUInt32BE(0), bytes.length - 4 - encodeFrame(messages[1]!).length - encodeFrame(messages[2]!).length);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const reader = new FrameReader();
      const got = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      assert.deepEqual(got, messages);
    }
  });

  it('refuses a frame longer than the limit', () => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    assert.throws(() => new FrameReader().push(head), /over the/);
  });

  it('replyHeader reads type and id, or null for a map that is not a reply', () => {
    assert.deepEqual(replyHeader({ type: 'gate', id: 3, decision: 'abstain' }), { type: 'gate', id: 3 });
    assert.equal(replyHeader({ type: 'gate' }), null);
    assert.equal(replyHeader('nope'), null);
  });
});
