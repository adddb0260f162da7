// The presented credential: a bearer secret in any case of `Bearer `, trimmed, read without
// copies; the other headers only when there is no bearer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { presentedSecret } from '../../../src/worker/auth/credential.js';
import type { IngressRequest } from '../../../src/worker/pipeline/client.js';

function req(over: Partial<Record<'authorization' | 'xApiKey' | 'xGoogApiKey' | 'query', string>>): IngressRequest {
  return { authorization: '', xApiKey: '', xGoogApiKey: '', query: '', ...over } as unknown as IngressRequest;
}

describe('presentedSecret', () => {
  it('takes a bearer secret in any case and trims it', () => {
    assert.equal(presentedSecret(req({ authorization: 'Bearer abc.def' })), 'abc.def');
    assert.equal(presentedSecret(req({ authorization: 'bEaReR abc' })), 'abc');
    assert.equal(presentedSecret(req({ authorization: 'Bearer   abc  ' })), 'abc');
  });

  it('is not fooled by a near prefix, and falls back to the other headers', () => {
    assert.equal(presentedSecret(req({ authorization: 'Bearer\u0000abc' })), '');
    assert.equal(presentedSecret(req({ authorization: 'Bearer ' })), '');
    assert.equal(presentedSecret(req({ authorization: 'Basic abc', xApiKey: 'k1' })), 'k1');
    assert.equal(presentedSecret(req({ xGoogApiKey: 'k2' })), 'k2');
    assert.equal(presentedSecret(req({ query: 'alt=sse&key=k3' })), 'k3');
  });
});
