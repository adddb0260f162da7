// Checks the codec tests share: a request refused as the caller's mistake, an upstream answer
// decoded (with its usage read alone the same).
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/shared/errors.js';
import type { ModelResponse } from '../../../src/shared/model/types.js';
import type { Codec } from '../../../src/shared/protocols/codec.js';

/** `run` throws an invalid_request GatewayError whose message matches `pattern`. */
export function assertInvalidRequest(run: () => unknown, pattern: RegExp): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof GatewayError, 'a GatewayError');
    assert.equal(e.kind, 'invalid_request');
    assert.match(e.message, pattern);
    return true;
  });
}

/** `codec` reads `body`, an upstream answer, as `expected`, and the usage alone as the same usage. */
export function assertDecodesAnswer(codec: Codec, body: unknown, expected: ModelResponse): void {
  assert.deepEqual(codec.decodeResponse(body), expected);
  assert.deepEqual(codec.usageFromResponse(body), expected.usage);
}
