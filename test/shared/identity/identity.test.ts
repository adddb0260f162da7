// Role bindings and the per-identity key id: the first bound team in claim order, the highest
// admin scope capped by max_admin_scope, and an id stable per (provider, sub) and secret-keyed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { boundAdminScope, boundTeam, identityKeyId, type CompiledBindings, type CompiledIdentityProvider } from '../../../src/shared/identity/identity.js';

const BINDINGS: CompiledBindings = {
  corp: {
    eng: { group: 'team-eng', adminScope: null },
    ml: { group: 'team-ml', adminScope: null },
    ops: { group: null, adminScope: 'full' },
    audit: { group: null, adminScope: 'read-only' },
  },
};

function provider(maxAdminScope: CompiledIdentityProvider['maxAdminScope']): CompiledIdentityProvider {
  return {
    name: 'corp',
    issuer: 'https://idp',
    audience: 'gw',
    roleClaim: 'groups',
    jwksUrl: null,
    caCertPem: null,
    clockSkewSec: 30,
    maxAdminScope,
    browserClientId: null,
    browserScope: 'openid',
  };
}

describe('identity bindings', () => {
  it('the first claim group bound to a team wins; none bound is null', () => {
    assert.equal(boundTeam(BINDINGS, 'corp', ['ml', 'eng']), 'team-ml');
    assert.equal(boundTeam(BINDINGS, 'corp', ['ops', 'eng']), 'team-eng');
    assert.equal(boundTeam(BINDINGS, 'corp', ['sales']), null);
    assert.equal(boundTeam(BINDINGS, 'other', ['eng']), null);
  });

  it('admin scope: the highest bound, capped by max_admin_scope; none never', () => {
    assert.equal(boundAdminScope(BINDINGS, provider('full'), ['audit', 'ops']), 'full');
    assert.equal(boundAdminScope(BINDINGS, provider('read-only'), ['ops']), 'read-only');
    assert.equal(boundAdminScope(BINDINGS, provider('full'), ['audit']), 'read-only');
    assert.equal(boundAdminScope(BINDINGS, provider('none'), ['ops']), 'none');
    assert.equal(boundAdminScope(BINDINGS, provider('full'), ['eng']), 'none');
  });

  it('the key id is deterministic per (provider, sub) and depends on the signing key', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    assert.equal(identityKeyId(a, 'corp', 'alice'), identityKeyId(a, 'corp', 'alice'));
    assert.notEqual(identityKeyId(a, 'corp', 'alice'), identityKeyId(a, 'corp', 'bob'));
    assert.notEqual(identityKeyId(a, 'corp', 'alice'), identityKeyId(a, 'partner', 'alice'));
    assert.notEqual(identityKeyId(a, 'corp', 'alice'), identityKeyId(b, 'corp', 'alice'));
    assert.match(identityKeyId(a, 'corp', 'alice'), /^key_idp_[A-Za-z0-9_-]{24}$/);
  });
});
