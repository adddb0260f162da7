// The verified-token cache: found by content, never by a tail collision, oldest out first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VerifiedCache, tailHash } from '../../../src/shared/identity/verified-cache.js';

const TAIL = 'x'.repeat(30);

test('a cached token is found by the same characters, not the same string object', () => {
  const cache = new VerifiedCache<{ expSec: number; sub: string }>(10);
  const token = `header.payload.${'s'.repeat(86)}`;
  cache.set(token, { expSec: 100, sub: 'a' });
  const again = `Bearer ${token}`.slice(7); // a new string, as each request's header is
  assert.equal(cache.get(again, 50)?.sub, 'a');
  assert.equal(cache.get(`${token}z`, 50), undefined);
});

test('two tokens whose tails collide never answer for each other', () => {
  const cache = new VerifiedCache<{ expSec: number; sub: string }>(10);
  const a = `aaa.${TAIL}`;
  const b = `bbb.${TAIL}`;
  assert.equal(tailHash(a), tailHash(b));
  cache.set(a, { expSec: 100, sub: 'a' });
  assert.equal(cache.get(b, 50), undefined, 'b shares a hash with a but is not a');
  cache.set(b, { expSec: 100, sub: 'b' });
  assert.equal(cache.get(b, 50)?.sub, 'b');
  assert.equal(cache.get(a, 50), undefined, 'a gave its entry up to b');
  assert.equal(cache.size, 1);
});

test('an expired entry is dropped when looked up', () => {
  const cache = new VerifiedCache<{ expSec: number }>(10);
  cache.set('t1', { expSec: 100 });
  assert.equal(cache.get('t1', 100), undefined);
  assert.equal(cache.size, 0);
});

test('at capacity the oldest entry goes first; clear says how many it held', () => {
  const cache = new VerifiedCache<{ expSec: number }>(2);
  cache.set('token-1', { expSec: 100 });
  cache.set('token-2', { expSec: 100 });
  cache.set('token-3', { expSec: 100 });
  assert.equal(cache.get('token-1', 0), undefined);
  assert.notEqual(cache.get('token-2', 0), undefined);
  assert.notEqual(cache.get('token-3', 0), undefined);
  cache.resize(3);
  cache.set('token-4', { expSec: 100 });
  assert.equal(cache.size, 3);
  assert.equal(cache.clear(), 3);
  assert.equal(cache.size, 0);
});

test('the hash is a non-negative Smi-sized integer for any token', () => {
  for (const t of ['', 'a', 'é'.repeat(40), '\uffff'.repeat(5), 'x'.repeat(1000)]) {
    const h = tailHash(t);
    assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 30, `${h}`);
  }
});
