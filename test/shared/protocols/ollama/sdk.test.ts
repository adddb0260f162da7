// The official ollama SDK, pointed at a local server that answers with the ollama codec's
// bytes, written a few bytes at a time: proof that its NDJSON reader accepts what the codec
// writes (text lines, whole tool calls, the done line, error lines and error bodies).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ollama } from 'ollama';
import { ollamaCodec } from '../../../../src/shared/protocols/ollama/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let client: Ollama;

before(async () => {
  upstream = await CannedUpstream.start(6);
  const port = upstream.port;
  client = new Ollama({ host: `http://127.0.0.1:${port}` });
});

after(() => upstream.close());

const events: StreamEvent[] = toolCallTurn({ id: 'x', model: 'llama-pool' });

describe('ollama SDK reads what the ollama codec writes', () => {
  it('chat with stream: true yields text parts, the tool call and the done part', async () => {
    upstream.next = cannedStream(ollamaCodec, events);
    const parts = [];
    for await (const part of await client.chat({ model: 'llama-pool', messages: [{ role: 'user', content: 'hi' }], stream: true })) parts.push(part);
    assert.equal(upstream.lastRequest?.url, '/api/chat');
    assert.equal(parts.map((p) => p.message.content).join(''), 'Looking it up ☀️.');
    const calls = parts.flatMap((p) => p.message.tool_calls ?? []);
    assert.deepEqual(
      calls.map((c) => [c.function.name, c.function.arguments]),
      [['get_weather', { city: 'Paris' }]],
    );
    const last = parts.at(-1);
    assert.ok(last);
    assert.equal(last.done, true);
    assert.equal(last.done_reason, 'stop');
    assert.equal(last.prompt_eval_count, 16);
    assert.equal(last.eval_count, 7);
  });

  it('an error line raises from the stream', async () => {
    upstream.next = cannedStream(ollamaCodec, events.slice(0, 3), 'model runner crashed');
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const part of await client.chat({ model: 'llama-pool', messages: [{ role: 'user', content: 'hi' }], stream: true }))
        seen.push(part.message.content);
    }, /model runner crashed/);
    assert.deepEqual(seen, ['Looking ']);
  });

  it('chat with stream: false parses the response', async () => {
    upstream.next = cannedResponse(ollamaCodec, {
      id: 'r',
      model: 'llama-pool',
      content: [{ type: 'text', text: 'Hi!' }],
      finishReason: 'length',
      usage: { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 },
    });
    const resp = await client.chat({ model: 'llama-pool', messages: [{ role: 'user', content: 'hi' }], stream: false });
    assert.equal(resp.message.content, 'Hi!');
    assert.equal(resp.done_reason, 'length');
    assert.equal(resp.prompt_eval_count, 3);
  });

  it('a gateway error raises ResponseError with the message and status', async () => {
    const err = ollamaCodec.encodeError('rate_limited', 'slow down', 4);
    upstream.next = { status: err.status, headers: err.headers, body: err.body };
    await assert.rejects(client.chat({ model: 'llama-pool', messages: [{ role: 'user', content: 'hi' }] }), (e: unknown) => {
      const r = e as { name?: string; error?: string; status_code?: number };
      return r.name === 'ResponseError' && r.error === 'slow down' && r.status_code === 429;
    });
  });
});
