// The `ollama` SDK (native chat) against the real gateway. Its ResponseError is not exported,
// so the checks go by name and status_code.
import assert from 'node:assert/strict';
import { ollamaSdk } from '../../helpers/clients/ollama.js';
import { sdkSuite } from './suite.js';

function assertResponseError(err: unknown, status: number): void {
  assert.ok(err instanceof Error && err.name === 'ResponseError', `expected ResponseError, got ${String(err)}`);
  assert.equal((err as Error & { status_code?: number }).status_code, status);
}

sdkSuite('ollama', {
  call: (url, model, prompt) => ollamaSdk(url).chat({ model, messages: [{ role: 'user', content: prompt }], stream: false }),
  assertNotFound(err) {
    assertResponseError(err, 404);
    assert.match((err as Error).message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assertResponseError(err, 429);
  },
  assertUnavailable(err) {
    assertResponseError(err, 503);
  },
});
