import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REQUEST_HEADER, uwsKey } from '../../src/worker/uws-keys.js';

describe('uwsKey', () => {
  it('holds exactly the bytes of the name', () => {
    assert.deepEqual(Buffer.from(uwsKey('content-type')), Buffer.from('content-type'));
    assert.equal(Buffer.from(REQUEST_HEADER.xGoogApiKey).toString('latin1'), 'x-goog-api-key');
    assert.equal(uwsKey('').byteLength, 0);
  });

  it('refuses a name that is not ASCII (its bytes would not be its UTF-8)', () => {
    assert.throws(() => uwsKey('café'), RangeError);
  });
});
