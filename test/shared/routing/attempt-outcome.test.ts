import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptOutcome, movesBreaker, outcomeOfErrorStatus, outcomeOfTransportError } from '../../../src/shared/routing/attempt-outcome.js';

describe('attempt outcomes', () => {
  it('recognises each protocol wording of a context-length error', () => {
    for (const text of [
      '{"error":{"message":"This model\'s maximum context length is 8192 tokens.","code":"context_length_exceeded"}}',
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
      '{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
      '{"message":"Input is too long for requested model."}',
      '{"error":"the input length exceeds the context length"}',
    ])
      assert.equal(outcomeOfErrorStatus(400, text), AttemptOutcome.ContextLength, text);
    assert.equal(outcomeOfErrorStatus(400, '{"error":{"message":"bad temperature"}}'), AttemptOutcome.ClientError);
  });

  it('sorts statuses by whose fault they are', () => {
    assert.equal(outcomeOfErrorStatus(402, ''), AttemptOutcome.HardDownBilling);
    assert.equal(outcomeOfErrorStatus(429, '{"error":{"type":"insufficient_quota"}}'), AttemptOutcome.HardDownBilling);
    assert.equal(outcomeOfErrorStatus(401, ''), AttemptOutcome.HardDownAuth);
    assert.equal(outcomeOfErrorStatus(403, ''), AttemptOutcome.HardDownAuth);
    assert.equal(outcomeOfErrorStatus(429, ''), AttemptOutcome.Transient);
    assert.equal(outcomeOfErrorStatus(503, ''), AttemptOutcome.Transient);
    assert.equal(outcomeOfErrorStatus(504, ''), AttemptOutcome.UpstreamTimeout);
    assert.equal(outcomeOfErrorStatus(404, ''), AttemptOutcome.ClientError);
    assert.equal(outcomeOfTransportError('ECONNREFUSED', false), AttemptOutcome.Connect);
    assert.equal(outcomeOfTransportError('UND_ERR_SOCKET', false), AttemptOutcome.Transient);
    assert.equal(outcomeOfTransportError('UND_ERR_HEADERS_TIMEOUT', false), AttemptOutcome.AttemptTimeout);
    for (const o of [
      AttemptOutcome.ClientError,
      AttemptOutcome.CallerAbort,
      AttemptOutcome.Untranslatable,
      AttemptOutcome.MissingCredential,
      AttemptOutcome.ContextLength,
    ]) {
      assert.equal(movesBreaker(o), false);
    }
  });
});
