import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { util } from 'undici';
import { headerObject, rawHeader } from '../../../src/worker/upstream/raw-headers.js';

function raw(...pairs: string[]): Buffer[] {
  return pairs.map((p) => Buffer.from(p));
}

describe('raw upstream headers', () => {
  it('reads a header by its lower-case name in whatever case the upstream wrote it', () => {
    const headers = raw('Content-Type', 'application/json', 'RETRY-AFTER', '7', 'x-request-id', 'abc');
    assert.equal(rawHeader(headers, 'content-type'), 'application/json');
    assert.equal(rawHeader(headers, 'retry-after'), '7');
  });

  it('gives what undici\'s parsed headers give as a string: "" when absent or repeated', () => {
    const cases = [
      raw('content-type', 'text/plain'),
      raw('date', 'x'),
      raw('content-type', 'a', 'Content-Type', 'b'),
      raw('content-type', 'caf\u00e9'),
      raw('content-typ', 'a', 'content-typeX', 'b'),
    ];
    for (const headers of cases) {
      const parsed = util.parseHeaders(headers)['content-type'];
      assert.equal(rawHeader(headers, 'content-type'), typeof parsed === 'string' ? parsed : '');
    }
  });

  it('decodes every header for the error path as undici does', () => {
    const headers = raw('Content-Type', 'application/json', 'set-cookie', 'a=1', 'Set-Cookie', 'b=2');
    assert.deepEqual(headerObject(headers), util.parseHeaders(headers));
  });
});
