// The official openai SDK (v6) Responses client, pointed at a local server that answers with
// the responses codec's bytes, written a few bytes at a time: proof that the SDK's
// ResponseStream accumulator (which needs sequence_number, item ids, output_index and
// content_index, and takes the final response from response.completed) accepts them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { responsesCodec } from '../../../../src/shared/protocols/responses/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let client: OpenAI;

before(async () => {
  upstream = await CannedUpstream.start(7);
  const port = upstream.port;
  client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

after(() => upstream.close());

const events: StreamEvent[] = toolCallTurn({ id: 'resp_gw1', model: 'gpt-pool' });

describe('openai SDK (Responses) reads what the responses codec writes', () => {
  it('ResponseStream emits deltas with snapshots and resolves the final response', async () => {
    upstream.next = cannedStream(responsesCodec, events);
    const stream = client.responses.stream({ model: 'gpt-pool', input: 'hi' });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (e) => snapshots.push(e.snapshot));
    const args: string[] = [];
    stream.on('response.function_call_arguments.delta', (e) => args.push(e.snapshot));
    const final = await stream.finalResponse();
    assert.equal(upstream.lastRequest?.url, '/v1/responses');
    assert.deepEqual(snapshots, ['Looking ', 'Looking it up ☀️.']);
    assert.deepEqual(args, ['{"city":', '{"city":"Paris"}']);
    assert.equal(final.id, 'resp_gw1');
    assert.equal(final.status, 'completed');
    assert.equal(final.output_text, 'Looking it up ☀️.');
    const call = final.output.find((o) => o.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.deepEqual([call.call_id, call.name, call.arguments], ['call_0', 'get_weather', '{"city":"Paris"}']);
    assert.deepEqual(final.usage, {
      input_tokens: 16,
      input_tokens_details: { cached_tokens: 5 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 23,
    });
  });

  it('a length finish ends with response.incomplete', async () => {
    upstream.next = cannedStream(responsesCodec, [...events.slice(0, 5), { type: 'finish', reason: 'length' }, { type: 'end' }]);
    const final = await client.responses.stream({ model: 'gpt-pool', input: 'hi' }).finalResponse();
    assert.equal(final.status, 'incomplete');
    assert.deepEqual(final.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(final.output_text, 'Looking it up ☀️.');
  });

  it('a mid-stream error event raises APIError', async () => {
    const enc = responsesCodec.createStreamEncoder();
    const body =
      events
        .slice(0, 3)
        .map((e) => enc.encode(e))
        .join('') + enc.error('upstream_error', 'upstream fell over');
    upstream.next = { status: 200, headers: { 'content-type': 'text/event-stream' }, body };
    const types: string[] = [];
    await assert.rejects(
      async () => {
        for await (const ev of await client.responses.create({ model: 'gpt-pool', input: 'hi', stream: true })) types.push(ev.type);
      },
      (e: unknown) => e instanceof OpenAI.APIError && /upstream fell over/.test(e.message),
    );
    assert.ok(types.includes('response.output_text.delta'));
  });

  it('a non-stream response parses, output_text included', async () => {
    upstream.next = cannedResponse(responsesCodec, {
      id: 'resp_2',
      model: 'gpt-pool',
      content: [{ type: 'text', text: 'Hi!' }],
      finishReason: 'stop',
      usage: { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 },
    });
    const resp = await client.responses.create({ model: 'gpt-pool', input: 'hi' });
    assert.equal(resp.output_text, 'Hi!');
    assert.equal(resp.usage?.input_tokens, 3);
  });

  it("gateway errors raise the SDK's own exception classes", async () => {
    const err = responsesCodec.encodeError('rate_limited', 'slow down', 2);
    upstream.next = { status: err.status, headers: err.headers, body: err.body };
    await assert.rejects(
      client.responses.create({ model: 'gpt-pool', input: 'hi' }),
      (e: unknown) => e instanceof OpenAI.RateLimitError && e.code === 'rate_limited' && e.headers?.get('retry-after') === '2',
    );
  });
});
