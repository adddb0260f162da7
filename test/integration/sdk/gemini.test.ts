// `@google/genai` (generateContent) against the real gateway.
import assert from 'node:assert/strict';
import { ApiError } from '@google/genai';
import { geminiSdk } from '../../helpers/clients/gemini.js';
import { sdkSuite } from './suite.js';

function assertApiError(err: unknown, status: number, statusName: string): void {
  assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
  assert.equal(err.status, status);
  // The SDK puts the response's error JSON in the message.
  assert.match(err.message, new RegExp(statusName));
}

sdkSuite('gemini', {
  call: (url, model, prompt) => geminiSdk(url).models.generateContent({ model, contents: prompt }),
  assertNotFound(err) {
    assertApiError(err, 404, 'NOT_FOUND');
    assert.match((err as Error).message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assertApiError(err, 429, 'RESOURCE_EXHAUSTED');
  },
  assertUnavailable(err) {
    assertApiError(err, 503, 'UNAVAILABLE');
  },
});
