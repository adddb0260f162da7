// `@aws-sdk/client-bedrock-runtime` (Converse) against the real gateway.
import assert from 'node:assert/strict';
import { ConverseCommand, ResourceNotFoundException, ServiceUnavailableException, ThrottlingException } from '@aws-sdk/client-bedrock-runtime';
import { bedrockSdk } from '../../helpers/clients/bedrock.js';
import { sdkSuite } from './suite.js';

sdkSuite('bedrock', {
  call: (url, model, prompt) => bedrockSdk(url).send(new ConverseCommand({ modelId: model, messages: [{ role: 'user', content: [{ text: prompt }] }] })),
  assertNotFound(err) {
    assert.ok(err instanceof ResourceNotFoundException, `expected ResourceNotFoundException, got ${String(err)}`);
    assert.equal(err.$metadata.httpStatusCode, 404);
    assert.match(err.message, /no-such-pool/);
  },
  assertRateLimited(err) {
    assert.ok(err instanceof ThrottlingException, `expected ThrottlingException, got ${String(err)}`);
    assert.equal(err.$metadata.httpStatusCode, 429);
  },
  assertUnavailable(err) {
    assert.ok(err instanceof ServiceUnavailableException, `expected ServiceUnavailableException, got ${String(err)}`);
    assert.equal(err.$metadata.httpStatusCode, 503);
  },
});
