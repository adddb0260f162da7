// `@anthropic-ai/sdk` (Messages) against the real gateway.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { anthropicSdk } from '../../helpers/clients/anthropic.js';
import { sdkSuite } from './suite.js';

sdkSuite('anthropic', {
  call: (url, model, prompt) => anthropicSdk(url).messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: prompt }] }),
  assertNotFound(err) {
    assert.ok(err instanceof Anthropic.NotFoundError, `expected NotFoundError, got ${String(err)}`);
    assert.equal(err.status, 404);
    assert.equal(err.type, 'not_found_error');
    assert.match(err.message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assert.ok(err instanceof Anthropic.RateLimitError, `expected RateLimitError, got ${String(err)}`);
    assert.equal(err.status, 429);
    assert.equal(err.type, 'rate_limit_error');
    assert.equal(err.headers.get('retry-after'), '3');
  },
  assertUnavailable(err) {
    assert.ok(err instanceof Anthropic.InternalServerError, `expected InternalServerError, got ${String(err)}`);
    assert.equal(err.status, 503);
  },
});
