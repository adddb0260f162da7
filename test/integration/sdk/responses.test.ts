// The `openai` SDK (Responses API) against the real gateway.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { sdkSuite } from './suite.js';

sdkSuite('responses', {
  call: (url, model, prompt) => openaiSdk(url).responses.create({ model, input: prompt }),
  assertNotFound(err) {
    assert.ok(err instanceof OpenAI.NotFoundError, `expected NotFoundError, got ${String(err)}`);
    assert.equal(err.status, 404);
    assert.equal(err.type, 'invalid_request_error');
    assert.match(err.message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assert.ok(err instanceof OpenAI.RateLimitError, `expected RateLimitError, got ${String(err)}`);
    assert.equal(err.status, 429);
    assert.equal(err.headers.get('retry-after'), '3');
  },
  assertUnavailable(err) {
    assert.ok(err instanceof OpenAI.InternalServerError, `expected InternalServerError, got ${String(err)}`);
    assert.equal(err.status, 503);
  },
});
