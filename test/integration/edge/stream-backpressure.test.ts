// A caller that stops reading mid-stream: the gateway's socket fills, the upstream is paused,
// and when the caller reads again the rest arrives complete and in order (same protocol and
// translated). Stream writes are queued per event-loop turn and sent in one cork, so this is
// the path where a full send must still pause and resume the upstream. A whole answer longer
// than uWS's cork buffer goes out by tryEnd (src/worker/corked-send.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { suiteStack } from '../../helpers/clients/stack.js';

const stack = suiteStack();

/** Posts, reads the first bytes, stops reading for `pauseMs`, then reads to the end. */
function readWithPause(path: string, body: string, headers: Record<string, string>, pauseMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(stack.gateway.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const parts: Buffer[] = [];
      let paused = false;
      res.on('data', (c: Buffer) => {
        parts.push(c);
        if (!paused) {
          paused = true;
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const CHUNKS = 30_000; // several MB: more than the socket buffers hold

describe('a caller that stops reading mid-stream', () => {
  it('same protocol: the whole stream arrives, in order', async () => {
    const body = JSON.stringify({ model: 'pool-openai', stream: true, messages: [{ role: 'user', content: `go [mock chunks=${CHUNKS}]` }] });
    const { status, text } = await readWithPause('/v1/chat/completions', body, {}, 700);
    assert.equal(status, 200);
    const events = text.split('\n\n').filter((e) => e !== '');
    assert.equal(events.at(-1), 'data: [DONE]');
    assert.equal(events.filter((e) => e.includes('"content":')).length, CHUNKS + 1); // the role chunk's "" too
  });

  it('translated: the whole stream arrives, in order', async () => {
    const body = JSON.stringify({ model: 'pool-openai', max_tokens: 64, stream: true, messages: [{ role: 'user', content: `go [mock chunks=${CHUNKS}]` }] });
    const { status, text } = await readWithPause('/v1/messages', body, { 'anthropic-version': '2023-06-01' }, 700);
    assert.equal(status, 200);
    const events = text.split('\n\n').filter((e) => e !== '');
    assert.equal(events.at(-1), 'event: message_stop\ndata: {"type":"message_stop"}');
    assert.equal(events.filter((e) => e.startsWith('event: content_block_delta')).length, CHUNKS);
  });
});

describe('a caller that stops reading mid-answer', () => {
  it('a non-stream answer far longer than a cork arrives whole', async () => {
    const body = JSON.stringify({ model: 'pool-openai', messages: [{ role: 'user', content: `go [mock chunks=${CHUNKS}]` }] });
    const { status, text } = await readWithPause('/v1/chat/completions', body, {}, 300);
    assert.equal(status, 200);
    const answer = JSON.parse(text) as { choices: { message: { content: string } }[] };
    assert.ok(answer.choices[0]!.message.content.length > 100_000, 'the answer is longer than a cork buffer many times over');
  });
});
