// The codec tests' check that a request is refused as the caller's mistake: `run` throws an
// invalid_request GatewayError whose message matches `pattern`.
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/shared/errors.js';

export function assertInvalidRequest(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof GatewayError, 'a GatewayError');
    assert.equal(e.kind, 'invalid_request');
    assert.match(e.message, pattern);
    return true;
  });
}
