// The listing rules that need no gateway: which vendor a `GET /v1/models` is answered as (the
// header rule), and the vendors' paging (Anthropic's cursors, Gemini's page tokens).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { v1Vendor } from '../../../src/worker/listing/routes.js';
import { anthropicList, geminiList } from '../../../src/worker/listing/shapes.js';
import type { ListedModel } from '../../../src/worker/listing/catalog.js';

const NONE = { authorization: '', xApiKey: '', xGoogApiKey: '', anthropicVersion: '', query: '' };

describe('GET /v1/models: the header rule', () => {
  it('anthropic-version, or x-api-key without a bearer, is Anthropic', () => {
    assert.equal(v1Vendor({ ...NONE, anthropicVersion: '2023-06-01', xApiKey: 'k' }), 'anthropic');
    assert.equal(v1Vendor({ ...NONE, anthropicVersion: '2023-06-01', authorization: 'Bearer k' }), 'anthropic');
    assert.equal(v1Vendor({ ...NONE, xApiKey: 'k' }), 'anthropic');
  });
  it('x-goog-api-key or ?key= is Gemini', () => {
    assert.equal(v1Vendor({ ...NONE, xGoogApiKey: 'k' }), 'gemini');
    assert.equal(v1Vendor({ ...NONE, query: 'key=k&pageSize=2' }), 'gemini');
  });
  it('anything else is OpenAI (a bearer, x-api-key beside a bearer, nothing)', () => {
    assert.equal(v1Vendor({ ...NONE, authorization: 'Bearer k' }), 'openai');
    assert.equal(v1Vendor({ ...NONE, authorization: 'Bearer k', xApiKey: 'k' }), 'openai');
    assert.equal(v1Vendor(NONE), 'openai');
    assert.equal(v1Vendor({ ...NONE, query: 'keyless=1' }), 'openai');
  });
});

const MODELS: ListedModel[] = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, kind: 'pool', provider: 'p', protocol: 'openai', upstreamModel: '' }));
const ids = (page: { data?: Array<{ id: string }>; models?: Array<{ name: string }> }): string[] =>
  page.data?.map((m) => m.id) ?? page.models!.map((m) => m.name);

describe('Anthropic cursor paging', () => {
  it('limit, after_id and before_id page as the API does', () => {
    const first = JSON.parse(anthropicList(MODELS, new URLSearchParams('limit=2')));
    assert.deepEqual(ids(first), ['a', 'b']);
    assert.equal(first.has_more, true);
    assert.equal(first.last_id, 'b');
    const next = JSON.parse(anthropicList(MODELS, new URLSearchParams('limit=2&after_id=b')));
    assert.deepEqual(ids(next), ['c', 'd']);
    const last = JSON.parse(anthropicList(MODELS, new URLSearchParams('limit=2&after_id=d')));
    assert.deepEqual(ids(last), ['e']);
    assert.equal(last.has_more, false);
    const before = JSON.parse(anthropicList(MODELS, new URLSearchParams('limit=2&before_id=c')));
    assert.deepEqual(ids(before), ['a', 'b']);
    assert.equal(before.has_more, false);
    const empty = JSON.parse(anthropicList([], new URLSearchParams()));
    assert.deepEqual(empty, { data: [], has_more: false, first_id: null, last_id: null });
  });
});

describe('Gemini page tokens', () => {
  it('pageSize and pageToken walk the list; the last page has no token', () => {
    const first = JSON.parse(geminiList(MODELS, new URLSearchParams('pageSize=3')));
    assert.deepEqual(ids(first), ['models/a', 'models/b', 'models/c']);
    const second = JSON.parse(geminiList(MODELS, new URLSearchParams(`pageSize=3&pageToken=${first.nextPageToken}`)));
    assert.deepEqual(ids(second), ['models/d', 'models/e']);
    assert.equal(second.nextPageToken, undefined);
  });
});
