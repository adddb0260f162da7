// The official @aws-sdk/client-bedrock-runtime, pointed at a local server that answers with
// our encoders' bytes: proof that its event-stream unmarshaller (CRCs, headers, payload
// schemas, exception frames) and its restJson error parser accept them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  ServiceQuotaExceededException,
  ThrottlingException,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { bedrockCodec } from '../../../../src/shared/protocols/bedrock/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let client: BedrockRuntimeClient;

before(async () => {
  upstream = await CannedUpstream.start(0);
  const port = upstream.port;
  client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
});

after(() => {
  client.destroy();
  return upstream.close();
});

const events: StreamEvent[] = toolCallTurn({ id: 'r', model: 'm', cacheCreation: 2 });

const input = { modelId: 'anthropic.claude-3-haiku-20240307-v1:0', messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }] };

describe('@aws-sdk/client-bedrock-runtime reads what the bedrock codec writes', () => {
  it('ConverseStream yields every event with the right members', async () => {
    upstream.next = cannedStream(bedrockCodec, events);
    const out = await client.send(new ConverseStreamCommand(input));
    assert.equal(upstream.lastRequest?.url, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream');
    const seen: ConverseStreamOutput[] = [];
    for await (const ev of out.stream ?? []) seen.push(ev);
    assert.deepEqual(
      seen.map((e) => Object.keys(e).filter((k) => (e as unknown as Record<string, unknown>)[k] !== undefined)[0]),
      [
        'messageStart',
        'contentBlockDelta',
        'contentBlockDelta',
        'contentBlockStop',
        'contentBlockStart',
        'contentBlockDelta',
        'contentBlockDelta',
        'contentBlockStop',
        'messageStop',
        'metadata',
      ],
    );
    assert.equal(seen[0]!.messageStart?.role, 'assistant');
    assert.equal(
      seen
        .filter((e) => e.contentBlockDelta?.delta?.text)
        .map((e) => e.contentBlockDelta?.delta?.text)
        .join(''),
      'Looking it up ☀️.',
    );
    assert.deepEqual(seen[4]!.contentBlockStart, { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'call_0', name: 'get_weather' } } });
    assert.equal(
      seen
        .filter((e) => e.contentBlockDelta?.delta?.toolUse)
        .map((e) => e.contentBlockDelta?.delta?.toolUse?.input)
        .join(''),
      '{"city":"Paris"}',
    );
    assert.equal(seen[8]!.messageStop?.stopReason, 'tool_use');
    assert.deepEqual(seen[9]!.metadata?.usage, { inputTokens: 11, outputTokens: 7, totalTokens: 25, cacheReadInputTokens: 5, cacheWriteInputTokens: 2 });
  });

  it('raises a mid-stream exception frame as the modeled exception', async () => {
    upstream.next = cannedStream(bedrockCodec, events.slice(0, 3), 'Too many tokens', 'rate_limited');
    const out = await client.send(new ConverseStreamCommand(input));
    const texts: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of out.stream ?? []) if (ev.contentBlockDelta?.delta?.text) texts.push(ev.contentBlockDelta.delta.text);
      })(),
      (e: unknown) => {
        assert.ok(e instanceof ThrottlingException, `got ${(e as Error).name}`);
        assert.equal(e.message, 'Too many tokens');
        return true;
      },
    );
    assert.deepEqual(texts, ['Looking ']);
  });

  it('Converse reads the encoded response', async () => {
    upstream.next = cannedResponse(bedrockCodec, {
      id: 'r',
      model: 'm',
      finishReason: 'tool_calls',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_call', id: 'call_0', name: 'f', arguments: '{"a":1}' },
      ],
      usage: { input: 3, output: 1, cacheRead: 0, cacheCreation: 0 },
    });
    const out = await client.send(new ConverseCommand(input));
    assert.equal(upstream.lastRequest?.url, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    assert.equal(out.stopReason, 'tool_use');
    assert.deepEqual(out.output?.message?.content, [{ text: 'Hi' }, { toolUse: { toolUseId: 'call_0', name: 'f', input: { a: 1 } } }]);
    assert.equal(out.usage?.inputTokens, 3);
  });

  it('raises the encoded errors as the exceptions their x-amzn-errortype names', async () => {
    upstream.next = bedrockCodec.encodeError('insufficient_quota', 'Budget spent');
    await assert.rejects(client.send(new ConverseCommand(input)), (e: unknown) => {
      assert.ok(e instanceof ServiceQuotaExceededException, `got ${(e as Error).name}`);
      assert.equal(e.$metadata.httpStatusCode, 400);
      assert.equal(e.message, 'Budget spent');
      return true;
    });
    upstream.next = bedrockCodec.encodeError('rate_limited', 'slow down', 1);
    await assert.rejects(client.send(new ConverseCommand(input)), (e: unknown) => e instanceof ThrottlingException && e.message === 'slow down');
  });
});
