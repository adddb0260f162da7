// The official openai SDK (v6), pointed at a local server that answers with the openai
// codec's bytes, written a few bytes at a time: proof that the SDK's own stream parser and
// accumulator (ChatCompletionStream) and its error classes accept what the codec writes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { openaiCodec } from '../../../../src/shared/protocols/openai/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let client: OpenAI;

before(async () => {
  upstream = await CannedUpstream.start(5);
  const port = upstream.port;
  client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

after(() => upstream.close());

const events: StreamEvent[] = toolCallTurn({ id: 'chatcmpl-gw1', model: 'gpt-pool', secondCall: true });

const params = { model: 'gpt-pool', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('openai SDK reads what the openai codec writes', () => {
  it('ChatCompletionStream assembles text, parallel tool calls and usage', async () => {
    upstream.next = cannedStream(openaiCodec, events);
    const stream = client.chat.completions.stream({ ...params, stream_options: { include_usage: true } });
    const deltas: string[] = [];
    stream.on('content', (d) => deltas.push(d));
    const done: string[] = [];
    stream.on('tool_calls.function.arguments.done', (e) => done.push(`${e.name}:${e.arguments}`));
    const completion = await stream.finalChatCompletion();
    assert.equal(upstream.lastRequest?.url, '/v1/chat/completions');
    assert.deepEqual(deltas, ['Looking ', 'it up ☀️.']);
    assert.deepEqual(done, ['get_weather:{"city":"Paris"}', 'get_time:{}']);
    assert.equal(completion.id, 'chatcmpl-gw1');
    const choice = completion.choices[0];
    assert.ok(choice);
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, 'Looking it up ☀️.');
    assert.deepEqual(
      choice.message.tool_calls?.map((t) => t.type === 'function' && [t.id, t.function.name, t.function.arguments]),
      [
        ['call_0', 'get_weather', '{"city":"Paris"}'],
        ['call_1', 'get_time', '{}'],
      ],
    );
    assert.deepEqual(completion.usage, { prompt_tokens: 16, completion_tokens: 7, total_tokens: 23, prompt_tokens_details: { cached_tokens: 5 } });
  });

  it('create({stream: true}) yields the chunks, usage-only chunk last', async () => {
    upstream.next = cannedStream(openaiCodec, events);
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) chunks.push(chunk);
    assert.equal(chunks[0]!.choices[0]!.delta.role, 'assistant');
    const last = chunks.at(-1);
    assert.ok(last);
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage?.completion_tokens, 7);
  });

  it('a mid-stream error event raises APIError from the stream', async () => {
    upstream.next = cannedStream(openaiCodec, events.slice(0, 3), 'upstream fell over');
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) seen.push(chunk.choices[0]?.delta.content ?? '');
      },
      (e: unknown) => e instanceof OpenAI.APIError && /upstream fell over/.test(e.message),
    );
    assert.ok(seen.includes('Looking '));
  });

  it('a non-stream response parses as a ChatCompletion', async () => {
    upstream.next = cannedResponse(openaiCodec, {
      id: 'chatcmpl-2',
      model: 'gpt-pool',
      content: [{ type: 'text', text: 'Hi!' }],
      finishReason: 'stop',
      usage: { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 },
    });
    const completion = await client.chat.completions.create(params);
    assert.equal(completion.choices[0]!.message.content, 'Hi!');
    assert.equal(completion.usage?.prompt_tokens, 3);
  });

  it("gateway errors raise the SDK's own exception classes", async () => {
    const cases = [
      ['rate_limited', OpenAI.RateLimitError],
      ['unauthorized', OpenAI.AuthenticationError],
      ['forbidden', OpenAI.PermissionDeniedError],
      ['model_not_found', OpenAI.NotFoundError],
      ['invalid_request', OpenAI.BadRequestError],
      ['exhausted', OpenAI.InternalServerError],
    ] as const;
    for (const [kind, cls] of cases) {
      const err = openaiCodec.encodeError(kind, `no: ${kind}`, 3);
      upstream.next = { status: err.status, headers: err.headers, body: err.body };
      await assert.rejects(client.chat.completions.create(params), (e: unknown) => {
        assert.ok(e instanceof cls, `${kind} -> ${cls.name}`);
        assert.equal(e.code, kind);
        assert.match(e.message, new RegExp(`no: ${kind}`));
        assert.equal(e.headers?.get('retry-after'), '3');
        return true;
      });
    }
    const quota = openaiCodec.encodeError('insufficient_quota', 'out of budget');
    upstream.next = { status: quota.status, headers: quota.headers, body: quota.body };
    await assert.rejects(client.chat.completions.create(params), (e: unknown) => e instanceof OpenAI.RateLimitError && e.type === 'insufficient_quota');
  });
});
