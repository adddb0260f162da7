// The official @anthropic-ai/sdk, pointed at a local server that answers with our encoders'
// bytes: proof that the SDK's own parsers (MessageStream, error classes) accept them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { anthropicCodec } from '../../../../src/shared/protocols/anthropic/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let client: Anthropic;

before(async () => {
  upstream = await CannedUpstream.start(0);
  const port = upstream.port;
  client = new Anthropic({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
});

after(() => upstream.close());

const events: StreamEvent[] = toolCallTurn({ id: 'msg_gw1', model: 'claude-pool', textTail: 'it up.' });

const params = { model: 'claude-pool', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('@anthropic-ai/sdk reads what the anthropic codec writes', () => {
  it('MessageStream assembles the encoded stream into the final message', async () => {
    upstream.next = cannedStream(anthropicCodec, events);
    const stream = client.messages.stream(params);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const msg = await stream.finalMessage();
    assert.equal(upstream.lastRequest?.url, '/v1/messages');
    assert.deepEqual(texts, ['Looking ', 'it up.']);
    assert.equal(msg.id, 'msg_gw1');
    assert.equal(msg.stop_reason, 'tool_use');
    assert.deepEqual(
      msg.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    assert.equal((msg.content[0] as Anthropic.TextBlock).text, 'Looking it up.');
    const tool = msg.content[1] as Anthropic.ToolUseBlock;
    assert.deepEqual([tool.id, tool.name, tool.input], ['call_0', 'get_weather', { city: 'Paris' }]);
    assert.equal(msg.usage.input_tokens, 11);
    assert.equal(msg.usage.output_tokens, 7);
    assert.equal(msg.usage.cache_read_input_tokens, 5);
  });

  it('create() reads the encoded response', async () => {
    upstream.next = cannedResponse(anthropicCodec, {
      id: 'msg_2',
      model: 'claude-pool',
      finishReason: 'stop',
      content: [{ type: 'text', text: 'Hello' }],
      usage: { input: 3, output: 1, cacheRead: 0, cacheCreation: 0 },
    });
    const msg = await client.messages.create(params);
    assert.equal(msg.stop_reason, 'end_turn');
    assert.equal((msg.content[0] as Anthropic.TextBlock).text, 'Hello');
  });

  it('raises RateLimitError for the encoded rate-limit error', async () => {
    upstream.next = anthropicCodec.encodeError('rate_limited', 'slow down', 3);
    await assert.rejects(client.messages.create(params), (e: unknown) => {
      assert.ok(e instanceof Anthropic.RateLimitError);
      assert.equal(e.status, 429);
      assert.match(e.message, /slow down/);
      assert.equal((e.error as { error: { type: string } }).error.type, 'rate_limit_error');
      return true;
    });
  });

  it('raises the mid-stream error event as an APIError', async () => {
    upstream.next = cannedStream(anthropicCodec, events.slice(0, 3), 'upstream went away');
    await assert.rejects(client.messages.stream(params).finalMessage(), (e: unknown) => {
      assert.ok(e instanceof Anthropic.APIError);
      assert.match(e.message, /upstream went away/);
      return true;
    });
  });
});
