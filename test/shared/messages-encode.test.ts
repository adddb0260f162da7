// encodeMessage answers bytes of their own: msgpackr packs into one reused buffer that keeps the
// size of the largest message ever packed, and postMessage would clone that whole buffer with
// every later message (a one-key gov-update carried MBs after a 100k-key gov-state).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage, type MainToWorker } from '../../src/shared/messages.js';

describe('encodeMessage', () => {
  it('a small message after a large one owns a buffer of its own size', () => {
    const big = { t: 'auth-cache-flush', seq: 1, pad: 'x'.repeat(4 * 1024 * 1024) } as unknown as MainToWorker;
    assert.ok(encodeMessage(big).byteLength > 4 * 1024 * 1024);
    const small: MainToWorker = { t: 'gov-update', seq: 2, keys: [], removeKeys: ['key_a'], groups: [], removeGroups: [] };
    const bytes = encodeMessage(small);
    assert.equal(bytes.buffer.byteLength, bytes.byteLength);
    assert.deepEqual(decodeMessage(bytes), small);
    // A later pack does not overwrite bytes already handed out.
    encodeMessage({ t: 'auth-cache-flush', seq: 3 });
    assert.deepEqual(decodeMessage(bytes), small);
  });
});
