// hold_last: the mock sends a stream up to its last piece and holds the rest until the client
// releases it (POST /mock/release/<key>), the handshake the first-chunk test paces itself with.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mockChunk, mockText } from '../../src/mock/content.js';
import type { MockServer } from '../../src/mock/server.js';
import { eventually, streamedText } from './wire.js';
import { suiteMock } from '../helpers/clients/stack.js';

const CHAT = '/v1/chat/completions';

const release = (mock: MockServer, key: string): Promise<Response> => fetch(`${mock.url}/mock/release/${key}`, { method: 'POST' });

describe('mock provider: a stream held before its last piece', () => {
  const mock = suiteMock();

  it('sends every piece but the last, then the rest once released; a second release finds nothing', async () => {
    const res = await fetch(mock.url + CHAT, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi [mock chunks=4 hold_last=h1]' }] }),
    });
    const reader = res.body!.getReader();
    let text = '';
    // Read until the third piece is in: the mock has written all it will before the release.
    while (!streamedText(text).endsWith(mockChunk(2))) {
      const { done, value } = await reader.read();
      assert.equal(done, false, 'the stream ended while held');
      text += Buffer.from(value!).toString('utf8');
    }
    assert.equal(streamedText(text), mockText(3));
    assert.equal(mock.stats().completed, 0, 'held, not completed');

    const first = await release(mock, 'h1');
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { released: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    assert.equal(streamedText(text), mockText(4));
    assert.match(text, /data: \[DONE\]/);

    const again = await release(mock, 'h1');
    assert.equal(again.status, 404);
    assert.match(((await again.json()) as { error: string }).error, /no stream is held under "h1"/);
  });

  it('a client that leaves drops its hold; a bad key is a 400 naming the setting', async () => {
    const abort = new AbortController();
    const res = await fetch(mock.url + CHAT, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi [mock chunks=3 hold_last=h2]' }] }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.closed.catch(() => {});
    await eventually(() => mock.stats().aborted === 1, 10_000);
    assert.equal((await release(mock, 'h2')).status, 404);

    const bad = await fetch(mock.url + CHAT, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi [mock hold_last=a/b]' }] }),
    });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /hold_last/);
  });
});
