// What may appear in an audit entry's text fields (issue 46): names with "|" or control
// characters are refused, outside ids are escaped injectively, the verifier's field domains.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { auditFieldProblem, auditNameProblem, auditResource, auditSafeId } from '../../../src/main/audit/audit-text.js';

describe('audit text', () => {
  it('refuses "|" and control characters in a name, nothing else', () => {
    for (const bad of ['a|b', 'a\nb', 'a\u0000', '\u007f', '\u0085']) assert.notEqual(auditNameProblem(bad), null, JSON.stringify(bad));
    for (const good of ['ops', 'user:auth0%7C1@team', 'é😀', 'a b', 'a:b@c']) assert.equal(auditNameProblem(good), null, good);
  });

  it('escapes an outside id without "|" or control characters, and never maps two ids to one', () => {
    assert.equal(auditSafeId('auth0|123'), 'auth0%7C123');
    assert.equal(auditSafeId('50%'), '50%25');
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(auditNameProblem(auditSafeId(a) || 'x'), null);
        if (a !== b) assert.notEqual(auditSafeId(a), auditSafeId(b));
      }),
      { seed: 46, numRuns: 500 },
    );
  });

  it('a resource is escaped and bounded', () => {
    assert.equal(auditResource('hook:a|b'), 'hook:a%7Cb');
    assert.ok(auditResource('k'.repeat(10_000)).length <= 256);
    assert.equal(auditResource('config:3'), 'config:3');
  });

  it('field domains: outcome, principal forms, action, resource', () => {
    const ok = { action: 'group.create', resource: 'group:ops', outcome: 'applied', principal: 'admin' };
    assert.equal(auditFieldProblem(ok), null);
    for (const principal of ['anonymous', 'key_AbC-12_x', 'idp:corp:user:auth0%7C123']) assert.equal(auditFieldProblem({ ...ok, principal }), null, principal);
    for (const principal of ['', 'root', 'idp:corp:user:a|b', 'admin|x']) assert.notEqual(auditFieldProblem({ ...ok, principal }), null, principal);
    assert.notEqual(auditFieldProblem({ ...ok, outcome: 'rejected|applied' }), null);
    assert.notEqual(auditFieldProblem({ ...ok, action: 'Drop table' }), null);
    assert.notEqual(auditFieldProblem({ ...ok, resource: 'a|b' }), null);
    assert.notEqual(auditFieldProblem({ ...ok, resource: 'r'.repeat(257) }), null);
  });
});
