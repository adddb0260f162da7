// The admin router's generic parts, without a process: path and method matching (404, 405 +
// Allow), parameter/query/body validation, the admin_auth chain (401) and scopes (403), paging.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { compileRoutes, matchRoute } from '../../../src/main/admin/server.js';
import { authenticate, authorize, presentedToken, tokenMatches } from '../../../src/main/admin/guard.js';
import { checkBody, checkParams, checkQuery } from '../../../src/main/admin/validate.js';
import { AdminError, type AdminRoute } from '../../../src/main/admin/route.js';
import { pageBySortKey, pageLimit, PageQuery } from '../../../src/main/admin/paging.js';

const ok = () => ({ status: 200, body: {} });
const routes: AdminRoute<unknown>[] = [
  { method: 'GET', path: '/keys', operationId: 'a', summary: '', tag: 'keys', responses: {}, handler: ok },
  { method: 'POST', path: '/keys', operationId: 'b', summary: '', tag: 'keys', responses: {}, handler: ok },
  { method: 'GET', path: '/keys/{id}', operationId: 'c', summary: '', tag: 'keys', responses: {}, handler: ok },
  { method: 'POST', path: '/keys/{id}/rotate', operationId: 'd', summary: '', tag: 'keys', responses: {}, handler: ok },
];
const table = compileRoutes(routes);

function refusal(fn: () => unknown): AdminError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AdminError, `expected an AdminError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a refusal');
}

describe('admin router: matching', () => {
  it('matches literal and parameter segments, URL-decoding parameters', () => {
    assert.equal(matchRoute(table, 'GET', '/api/v1/admin/keys').route.operationId, 'a');
    assert.equal(matchRoute(table, 'POST', '/api/v1/admin/keys').route.operationId, 'b');
    const found = matchRoute(table, 'GET', '/api/v1/admin/keys/k%2F1');
    assert.equal(found.route.operationId, 'c');
    assert.deepEqual(found.params, { id: 'k/1' });
    assert.deepEqual(matchRoute(table, 'POST', '/api/v1/admin/keys/x/rotate').params, { id: 'x' });
  });

  it('unknown paths are 404 not_found, outside the prefix too', () => {
    for (const path of ['/api/v1/admin/nope', '/api/v1/admin/keys/x/y', '/other', '/api/v1/administrator/keys', '/api/v1/admin/keys/']) {
      const err = refusal(() => matchRoute(table, 'GET', path));
      assert.equal(err.status, 404, path);
      assert.equal(err.code, 'not_found');
    }
  });

  it('a known path with another method is 405 with Allow', () => {
    const err = refusal(() => matchRoute(table, 'DELETE', '/api/v1/admin/keys'));
    assert.equal(err.status, 405);
    assert.equal(err.code, 'method_not_allowed');
    assert.deepEqual(err.headers, { allow: 'GET, POST' });
  });
});

describe('admin router: validation', () => {
  const Body = Type.Object({ name: Type.String({ minLength: 1 }), n: Type.Optional(Type.Integer()) }, { additionalProperties: false });

  it('accepts a valid body and refuses unknown fields, wrong types and a missing body with 400', () => {
    checkBody(Body, { name: 'x', n: 2 });
    for (const bad of [{ name: 'x', extra: 1 }, { name: '' }, { name: 'x', n: 1.5 }, undefined, [1]]) {
      const err = refusal(() => checkBody(Body, bad));
      assert.equal(err.status, 400);
      assert.equal(err.code, 'invalid_request');
      assert.match(err.message, /^invalid body: body/);
    }
  });

  it('a body of optional fields may be absent', () => {
    checkBody(Type.Object({ confirm: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), undefined);
  });

  it('converts query strings to the declared types before checking them', () => {
    checkQuery(PageQuery, new URLSearchParams('limit=5&cursor=abc'));
    for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'limit=1.5', 'cursor=']) {
      const err = refusal(() => checkQuery(PageQuery, new URLSearchParams(q)));
      assert.equal(err.status, 400, q);
    }
    checkParams(Type.Object({ v: Type.Integer({ minimum: 0 }) }), { v: '3' });
    assert.equal(refusal(() => checkParams(Type.Object({ v: Type.Integer({ minimum: 0 }) }), { v: 'x' })).status, 400);
  });
});

describe('admin router: the admin_auth chain and scopes', () => {
  it('takes the token from x-admin-token or Authorization: Bearer', () => {
    assert.equal(presentedToken({ 'x-admin-token': 't1' }), 't1');
    assert.equal(presentedToken({ authorization: 'Bearer t2' }), 't2');
    assert.equal(presentedToken({ authorization: 'Basic abc' }), null);
    assert.equal(presentedToken({}), null);
  });

  it('compares tokens of any length without throwing', () => {
    assert.equal(tokenMatches('secret', 'secret'), true);
    assert.equal(tokenMatches('secret', 'secret-but-longer'), false);
    assert.equal(tokenMatches('secret', ''), false);
  });

  it('an empty chain is anonymous with full authority', () => {
    assert.deepEqual(authenticate({}, [], undefined), { id: 'anonymous', scope: 'full' });
  });

  it('admin-tokens: 401 for a missing or wrong token, principal admin for the right one', () => {
    assert.equal(refusal(() => authenticate({}, ['admin-tokens'], 'tok')).status, 401);
    assert.equal(refusal(() => authenticate({ 'x-admin-token': 'nope' }, ['admin-tokens'], 'tok')).status, 401);
    assert.deepEqual(authenticate({ authorization: 'Bearer tok' }, ['admin-tokens'], 'tok'), { id: 'admin', scope: 'full' });
  });

  it('a read-only principal may read and gets 403 on a mutation', () => {
    authorize({ id: 'user:ann', scope: 'read-only' }, 'read-only');
    const err = refusal(() => authorize({ id: 'user:ann', scope: 'read-only' }, 'full'));
    assert.equal(err.status, 403);
    assert.equal(err.code, 'forbidden');
  });
});

describe('admin paging', () => {
  it('walks every item exactly once, limit by limit, even when items are added meanwhile', () => {
    let items = ['a', 'b', 'c', 'd', 'e'];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: '2', ...(cursor === null ? {} : { cursor }) });
      const page = pageBySortKey(items, (s) => s, query);
      seen.push(...page.items);
      cursor = page.next_cursor;
      items = [...items, 'f'].filter((v, i, all) => all.indexOf(v) === i).sort();
    } while (cursor !== null);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('defaults to 100 and refuses a cursor it did not give out', () => {
    assert.equal(pageLimit(new URLSearchParams()), 100);
    assert.equal(refusal(() => pageBySortKey(['a'], (s) => s, new URLSearchParams('cursor=%%%'))).status, 400);
    assert.equal(refusal(() => pageBySortKey(['a'], (s) => s, new URLSearchParams({ cursor: Buffer.from('{"x":1}').toString('base64url') }))).status, 400);
  });
});
