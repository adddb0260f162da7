// The secret scan's matcher (issue 15): it finds a registered secret anywhere in a text, names
// where without echoing it, and config walking registers secret fields and env references.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { registerConfigSecrets, registeredSecrets, secretsIn } from './secret-scan.js';

describe('secret scan', () => {
  it('finds a secret inside a log line and never prints it', () => {
    const secret = 'sk-test-0123456789abcdef';
    const found = secretsIn('gateway log', `{"level":30,"msg":"upstream said ${secret} hi"}`, [secret, 'other-secret-xyz']);
    assert.equal(found.length, 1);
    assert.ok(!found[0]!.includes(secret));
    assert.match(found[0]!, /gateway log carries a registered secret \(24 chars/);
    assert.deepEqual(secretsIn('x', 'clean text', [secret]), []);
  });

  it('registers literal secret fields and the env values their references name, not short placeholders', () => {
    registerConfigSecrets(
      {
        providers: {
          a: { auth: { mode: 'bearer', key: 'literal-key-123456' } },
          b: { auth: { mode: 'bearer', key: { env: 'SCAN_TEST_KEY' } } },
          c: { auth: { key: 'x' } },
        },
      },
      { SCAN_TEST_KEY: 'from-env-abcdefgh' },
    );
    const s = registeredSecrets();
    assert.ok(s.has('literal-key-123456'));
    assert.ok(s.has('from-env-abcdefgh'));
    assert.ok(!s.has('x'));
  });
});
